/** What the login page and the shell look like with a brand: its name and its primary color. */
import { useTranslation } from "~/lib/react-i18n";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

export function BrandPreview({ name, color }: { name: string; color: string }) {
  const { t } = useTranslation("admin");
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("whitelabel.preview")}</CardTitle>
        <CardDescription>{t("whitelabel.previewHint")}</CardDescription>
      </CardHeader>
      <CardContent>
        <div
          className="space-y-4 rounded-lg border bg-muted/40 p-5"
          style={{ "--primary": color, "--primary-foreground": "#ffffff" } as React.CSSProperties}
          data-testid="brand-preview"
          aria-live="polite"
        >
          <p className="flex items-center gap-2 text-xl font-semibold text-primary">
            <span className="inline-block size-6 rounded-md bg-primary" aria-hidden /> {name}
          </p>
          <div className="space-y-2 rounded-md border bg-card p-4 shadow-sm">
            <p className="text-sm font-medium">{t("whitelabel.previewLogin")}</p>
            <div className="h-8 rounded-md border bg-background" aria-hidden />
            <span className="inline-flex h-9 w-full items-center justify-center rounded-md bg-primary text-sm font-medium text-primary-foreground">
              {t("whitelabel.previewButton")}
            </span>
            <p className="text-center text-xs text-primary underline">{t("whitelabel.previewLink")}</p>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
