/** Any unknown path: the root guard already ran (login / 403 first), then the not-found screen. */
export async function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
