/** The account's API token: masked, revealed on demand with a <details> disclosure (no JavaScript needed). */
import { useTranslation } from "~/lib/react-i18n";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

export function maskToken(token: string) {
  return token.length <= 8 ? "••••••••" : `${token.slice(0, 4)}${"•".repeat(12)}${token.slice(-4)}`;
}

export function ApiTokenCard({ token }: { token: string }) {
  const { t } = useTranslation("settings");
  return (
    <Card data-testid="api-token">
      <CardHeader>
        <CardTitle>{t("token.title")}</CardTitle>
        <CardDescription>{t("token.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <code className="block truncate rounded-md bg-muted px-3 py-2 font-mono text-sm">
          <span className="sr-only">{t("token.masked")} </span>
          {maskToken(token)}
        </code>
        <details className="group text-sm">
          <summary className="cursor-pointer font-medium text-primary hover:underline">
            <span className="group-open:hidden">{t("token.reveal")}</span>
            <span className="hidden group-open:inline">{t("token.hide")}</span>
          </summary>
          <code className="mt-2 block break-all rounded-md border bg-background px-3 py-2 font-mono text-sm" data-testid="api-token-value">
            {token}
          </code>
          <p className="mt-2 text-xs text-muted-foreground">{t("token.warning")}</p>
        </details>
      </CardContent>
    </Card>
  );
}
