/**
 * Language: saved on the person (users.locale) and in the lng cookie by POST /locale. A full page
 * load follows so every screen (and the translations sent to the browser) switch at once.
 */
import { Form } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { supportedLngs, type Lng } from "~/lib/i18n";

export function LanguageForm({ current }: { current: Lng }) {
  const { t } = useTranslation(["settings", "common"]);
  return (
    <Card id="language" className="scroll-mt-6">
      <CardHeader>
        <CardTitle>{t("language.title")}</CardTitle>
        <CardDescription>{t("language.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" action="/locale" reloadDocument className="flex flex-wrap items-end gap-3">
          <CsrfInput />
          <input type="hidden" name="redirectTo" value="/user/settings#language" />
          <div className="grid min-w-56 gap-2">
            <Label htmlFor="user-locale">{t("language.label")}</Label>
            <NativeSelect id="user-locale" name="locale" defaultValue={current} key={current}>
              {supportedLngs.map((l) => (
                <NativeSelectOption key={l} value={l} lang={l}>
                  {t(`common:languages.${l}`)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
          <Button type="submit">{t("common:actions.save")}</Button>
        </Form>
      </CardContent>
    </Card>
  );
}
