/** Widget settings (spec sections 2 and 3): the same screen at /live/configs/widget and /widget/config. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { WidgetScreen } from "~/components/live/widget-screen";
import { widgetAction, widgetLoader } from "~/lib/live-widget.server";

export const handle = { crumb: "live:widget.title" };

export const loader = ({ request }: LoaderFunctionArgs) => widgetLoader(request);
export const action = ({ request }: ActionFunctionArgs) => widgetAction(request);

export default function WidgetConfig() {
  const { widget, canEdit } = useLoaderData<typeof loader>();
  return <WidgetScreen widget={widget} canEdit={canEdit} />;
}
