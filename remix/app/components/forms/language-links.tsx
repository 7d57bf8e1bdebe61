import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { supportedLngs } from "~/lib/i18n";
import { CsrfInput } from "./fields";

/** Language choice for guests: one small form per language (works without JavaScript). */
export function LanguageLinks() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  return (
    <nav aria-label={t("shell.language")} className="mt-6 flex flex-wrap justify-center gap-1 text-sm">
      {supportedLngs.map((l) => (
        <Form key={l} method="post" action="/locale">
          <CsrfInput />
          <input type="hidden" name="locale" value={l} />
          <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
          <button
            type="submit"
            className={l === i18n.language ? "rounded px-2 py-1 font-semibold text-primary" : "rounded px-2 py-1 text-muted-foreground hover:text-foreground"}
            aria-current={l === i18n.language ? "true" : undefined}
          >
            {t(`languages.${l}`)}
          </button>
        </Form>
      ))}
    </nav>
  );
}
