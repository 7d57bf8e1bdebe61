/** /rcs/send: one RCS message — the composer with its phone preview and price, "Preview" and "Send" (components/rcs/send-screen.tsx, lib/rcs.server.ts). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { RcsSendScreen } from "~/components/rcs/send-screen";
import { rcsSendAction, rcsSendLoader } from "~/lib/rcs.server";

export const handle = { crumb: "rcs:send.crumb" };
export const loader = ({ request }: LoaderFunctionArgs) => rcsSendLoader(request);
export const action = ({ request }: ActionFunctionArgs) => rcsSendAction(request);

export default RcsSendScreen;
