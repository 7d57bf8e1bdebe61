/** /chat/macros/{macroId}/edit: edit one macro of the account (another account's is 404). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { getMacro, updateMacro } from "~api/live/macros";
import { macroSchema } from "~api/live/schemas";
import { tabulationOptions } from "~api/live/tabulations";
import { MacroForm } from "~/components/live/macro-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "live:macros.edit.title" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ macro: await orHttpError(getMacro(ctx, params.macroId!)), tabulations: await tabulationOptions(ctx) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  await orHttpError(getMacro(ctx, params.macroId!));
  return handleForm(request, macroSchema, async (v) => {
    const m = await updateMacro(ctx, params.macroId!, v);
    return redirectWithToast(request, "/chat/macros", { type: "success", title: "live:macros.edit.saved", params: { name: m.name } });
  });
}

export default function EditMacro() {
  const { macro, tabulations } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["live", "common"]);
  return (
    <div className="max-w-xl space-y-6">
      <PageHeader />
      <Card>
        <CardContent>
          <MacroForm
            id={`macro-edit-${macro.id}`}
            lastResult={last?.result}
            tabulations={tabulations}
            defaults={macro}
            busy={busy}
            submit={t("macros.edit.submit")}
            cancelTo="/chat/macros"
          />
        </CardContent>
      </Card>
    </div>
  );
}
