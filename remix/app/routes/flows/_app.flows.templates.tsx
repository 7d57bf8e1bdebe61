/**
 * /flows/templates (issue 20): the gallery of ready flows (api/flows/templates.ts) — welcome menu,
 * FAQ, lead capture, order status by CPF, opening hours —, each with what it does and the steps it
 * uses. "Use this template" opens /flows/create with it picked (name, channel and trigger are
 * asked there); the new draft starts from it, its texts in the reader's language.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { flowTemplates } from "~api/flows/templates";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import { useTranslation } from "~/lib/react-i18n";

export const handle = { crumb: "flows:crumbs.templates" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRoute(request);
  return json({ templates: flowTemplates() });
}

export default function FlowTemplates() {
  const { templates } = useLoaderData<typeof loader>();
  const { t } = useTranslation("flows");
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("gallery.description")}
        actions={
          <Button asChild variant="outline">
            <Link to="/flows">{t("create.back")}</Link>
          </Button>
        }
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {templates.map((tpl) => (
          <Card key={tpl.id} data-template={tpl.id}>
            <CardHeader>
              <CardTitle>{t(`templates.${tpl.id}.name`)}</CardTitle>
              <CardDescription>{t(`templates.${tpl.id}.description`)}</CardDescription>
            </CardHeader>
            <CardContent className="space-y-3">
              <p className="text-sm text-muted-foreground">{t("gallery.steps", { count: tpl.steps })}</p>
              <ul className="flex flex-wrap gap-1" aria-label={t("gallery.types")}>
                {tpl.types.map((type) => (
                  <li key={type}>
                    <Badge variant="outline">{t(`nodes.${type}`)}</Badge>
                  </li>
                ))}
              </ul>
              <Button asChild size="sm">
                <Link to={`/flows/create?template=${tpl.id}`} aria-label={t("gallery.useLabel", { name: t(`templates.${tpl.id}.name`) })}>
                  {t("gallery.use")}
                </Link>
              </Button>
            </CardContent>
          </Card>
        ))}
      </div>
    </div>
  );
}
