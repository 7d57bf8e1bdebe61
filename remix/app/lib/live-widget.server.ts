/** The widget settings screen's loader and action, shared by /live/configs/widget and /widget/config. */
import { json } from "@remix-run/node";
import { z } from "~api/lib/zod";
import { widgetSettingsSchema } from "~api/live/schemas";
import { canEditWidget, getWidget, regenerateWidgetKey, updateWidget } from "~api/live/settings";
import { orHttpError, requireRoute } from "./auth.server";
import { handleForm } from "./forms.server";
import { redirectWithToast } from "./toast.server";

export async function widgetLoader(request: Request) {
  const ctx = await requireRoute(request);
  return json({ widget: await orHttpError(getWidget(ctx)), canEdit: canEditWidget(ctx) });
}

export async function widgetAction(request: Request) {
  const ctx = await requireRoute(request);
  const path = new URL(request.url).pathname;
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "regenerate") {
    return handleForm(request, z.object({ intent: z.literal("regenerate") }), async () => {
      await regenerateWidgetKey(ctx);
      return redirectWithToast(request, path, { type: "success", title: "live:widget.key.done" });
    });
  }
  return handleForm(request, widgetSettingsSchema, async (v) => {
    await updateWidget(ctx, v);
    return redirectWithToast(request, path, { type: "success", title: "live:widget.saved" });
  });
}
