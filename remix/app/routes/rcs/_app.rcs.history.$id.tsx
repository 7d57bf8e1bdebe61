/** /rcs/history/{id}: one RCS message drawn as the handset shows it, with its events, SMS fallback leg and the handset's answers (components/rcs/message-screen.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { RcsMessageScreen } from "~/components/rcs/message-screen";
import { rcsMessageLoader } from "~/lib/rcs.server";

export const handle = { crumb: "rcs:history.detail.crumb" };
export const loader = ({ request, params }: LoaderFunctionArgs) => rcsMessageLoader(request, params.id ?? "");

export default RcsMessageScreen;
