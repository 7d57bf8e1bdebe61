/** /rcs/history: the RCS messages of a range of São Paulo days, filtered, a keyset page at a time (components/rcs/history-screen.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { RcsHistoryScreen } from "~/components/rcs/history-screen";
import { rcsHistoryLoader } from "~/lib/rcs.server";

export const loader = ({ request }: LoaderFunctionArgs) => rcsHistoryLoader(request);

export default RcsHistoryScreen;
