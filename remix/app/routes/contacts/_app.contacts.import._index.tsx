/**
 * /contacts/import: upload up to 10 .csv files (streamed through to the use-case, never held in memory)
 * and the account's recent imports.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { createImport, listImports } from "~api/imports/services";
import { isAppError } from "~api/lib/errors";
import { ImportsTable } from "~/components/imports/imports-table";
import { UploadForm, type UploadReply } from "~/components/imports/upload-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { requireCsrf } from "~/lib/csrf.server";
import { redirectWithToast } from "~/lib/toast.server";
import { streamUpload } from "~/lib/uploads.server";
import type { RootData } from "~/root";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  // The 20 most recent (the first keyset page).
  const imports = (await orHttpError(listImports(ctx, { limit: 20 }))).data;
  return json({ imports });
}

const reply = (body: UploadReply, status: number) => json(body, { status });

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const csrfOk = (fields: FormData) =>
    requireCsrf(request, fields).then(
      () => true,
      () => false,
    );

  if (!/^multipart\/form-data;/i.test(request.headers.get("Content-Type") ?? "")) {
    // Not an upload (a form posted without its files): answer like the form would.
    const fields = await request.formData().catch(() => new FormData());
    if (!(await csrfOk(fields))) return reply({ formErrors: ["errors.CSRF"] }, 403);
    return reply({ noFile: true }, 422);
  }

  // The CSRF token comes before the files: without a valid one, no file reaches the use-case.
  const { fields, outcome } = await streamUpload(request, {
    fileField: "files",
    acceptFiles: csrfOk,
    consume: (files) => createImport(ctx, files),
  });
  if (!(await csrfOk(fields))) return reply({ formErrors: ["errors.CSRF"] }, 403);
  if (outcome.status === "none") return reply({ noFile: true }, 422);
  if (outcome.status === "error") {
    const e = outcome.error;
    if (!isAppError(e)) throw e;
    const fieldErrors = e.fields ? Object.values(e.fields).flat() : [];
    return reply({ formErrors: fieldErrors.length ? fieldErrors : [`errors.${e.code}`], params: e.params }, e.status);
  }
  return redirectWithToast(request, `/contacts/import/${outcome.value.id}`, { type: "success", title: "imports:upload.received" });
}

export default function ImportUpload() {
  const { imports } = useLoaderData<typeof loader>();
  const last = useActionData<UploadReply>();
  const root = useRouteLoaderData<RootData>("root");
  const lng = root?.lng ?? "pt-BR";
  const { t } = useTranslation("imports");
  return (
    <div className="space-y-6">
      <PageHeader description={t("description")} />
      <Card className="max-w-2xl">
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("upload.title")}</h2>
        </CardHeader>
        <CardContent>
          <UploadForm reply={last} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("recent.title")}</h2>
          <CardDescription>{t("recent.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          {imports.length === 0 ? <p className="py-6 text-center text-sm text-muted-foreground">{t("recent.empty")}</p> : <ImportsTable rows={imports} lng={lng} />}
        </CardContent>
      </Card>
    </div>
  );
}
