/** /rcs/success?id=<id>: the RCS message a send accepted, with its preview (components/rcs/message-screen.tsx); another account's or none: not found. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { RcsSuccessScreen } from "~/components/rcs/message-screen";
import { rcsSuccessLoader } from "~/lib/rcs.server";

export const handle = { crumb: "rcs:send.success.crumb" };
export const loader = ({ request }: LoaderFunctionArgs) => rcsSuccessLoader(request);

export default RcsSuccessScreen;
