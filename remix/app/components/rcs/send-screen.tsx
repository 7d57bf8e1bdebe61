/**
 * /rcs/send: one RCS message from one of the account's launched agents to one handset, composed
 * field by field (type, text, description, media links, suggestions, carousel cards with their
 * buttons), optionally started from a saved template, with a phone-shaped preview (./preview.tsx)
 * and the price (basic or rich, the account's price of the class) before sending.
 *
 * Without JavaScript: every card slot (10) and suggestion slot (11) is a plain input in a
 * <details>; "Preview" posts and the page comes back with the server-rendered preview and the
 * price (quoteRcs, nothing written), "Send" accepts it (acceptRcs) and goes to /rcs/success. The
 * send's field errors come back at their inputs (content.images.3.title at card 4's title).
 * With JavaScript: the preview and the price follow the form as one types, cards and suggestions
 * are added and removed with buttons, and the fields of other types are hidden.
 */
import { Form, useActionData, useLoaderData, useNavigate, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { CsrfInput, FormErrors, useErrorText } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RcsSendData, RcsSendReply } from "~/lib/rcs.server";
import type { RootData } from "~/root";
import {
  CARD_BUTTONS,
  CARD_SLOTS,
  emptyCard,
  emptySuggestion,
  inputName,
  previewOf,
  previewPriceClass,
  RCS_TYPES,
  stateFromForm,
  SUGGESTION_SLOTS,
  SUGGESTION_TYPES,
  type ComposerState,
  type SlotSuggestion,
} from "./composer";
import { RcsPreview } from "./preview";

const idOf = (name: string) => `rcs-${name.replaceAll(".", "-")}`;

type Errs = (name: string) => string[] | undefined;

/** One suggestion's inputs (a chip of the message, or a card's button). Without JavaScript every kind's fields show; with it, only the chosen kind's. */
function SuggestionFields({ path, value, errs, hydrated, legend }: { path: string; value: SlotSuggestion; errs: Errs; hydrated: boolean; legend: string }) {
  const { t } = useTranslation("rcs");
  const f = (k: string) => `${path}.${k}`;
  const show = (...types: string[]) => !hydrated || types.includes(value.type);
  return (
    <fieldset className="grid gap-3 rounded-md border p-3 sm:grid-cols-2" data-slot-path={path}>
      <legend className="px-1 text-xs font-medium text-muted-foreground">{legend}</legend>
      {errs(path)?.length ? (
        <p role="alert" className="text-sm text-destructive sm:col-span-2">
          {errs(path)?.join(" ")}
        </p>
      ) : null}
      <FormField label={t("send.suggestion.type")} htmlFor={idOf(f("type"))} error={errs(f("type"))}>
        <NativeSelect id={idOf(f("type"))} name={f("type")} defaultValue={value.type}>
          {SUGGESTION_TYPES.map((ty) => (
            <NativeSelectOption key={ty} value={ty}>
              {t(`send.suggestion.types.${ty}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </FormField>
      <FormField label={t("send.suggestion.text")} htmlFor={idOf(f("text"))} error={errs(f("text"))}>
        <Input id={idOf(f("text"))} name={f("text")} defaultValue={value.text} maxLength={100} autoComplete="off" aria-invalid={errs(f("text")) ? true : undefined} />
      </FormField>
      <div hidden={!show("url")} className="sm:col-span-2">
        <FormField label={t("send.suggestion.url")} htmlFor={idOf(f("url"))} error={errs(f("url"))}>
          <Input id={idOf(f("url"))} name={f("url")} type="url" defaultValue={value.url} placeholder="https://" autoComplete="off" />
        </FormField>
      </div>
      <div hidden={!show("dial")} className="sm:col-span-2">
        <FormField label={t("send.suggestion.phone")} htmlFor={idOf(f("phoneNumber"))} error={errs(f("phoneNumber"))}>
          <Input id={idOf(f("phoneNumber"))} name={f("phoneNumber")} type="tel" defaultValue={value.phoneNumber} placeholder="+5511…" autoComplete="off" />
        </FormField>
      </div>
      <div hidden={!show("calendar")} className="grid gap-3 sm:col-span-2 sm:grid-cols-3">
        <FormField label={t("send.suggestion.eventTitle")} htmlFor={idOf(f("title"))} error={errs(f("title"))}>
          <Input id={idOf(f("title"))} name={f("title")} defaultValue={value.title} autoComplete="off" />
        </FormField>
        <FormField label={t("send.suggestion.start")} htmlFor={idOf(f("startTime"))} error={errs(f("startTime"))}>
          <Input id={idOf(f("startTime"))} name={f("startTime")} type="datetime-local" defaultValue={value.startTime} />
        </FormField>
        <FormField label={t("send.suggestion.end")} htmlFor={idOf(f("endTime"))} error={errs(f("endTime"))}>
          <Input id={idOf(f("endTime"))} name={f("endTime")} type="datetime-local" defaultValue={value.endTime} />
        </FormField>
      </div>
    </fieldset>
  );
}

/** A card's button slots: without JavaScript folded in a <details> (open when one is filled or wrong); with it, the slots themselves (added with a button). */
function ButtonsBox({ hydrated, open, children }: { hydrated: boolean; open: boolean; children: React.ReactNode }) {
  const { t } = useTranslation("rcs");
  if (hydrated) return <div className="space-y-3">{children}</div>;
  return (
    <details open={open} className="rounded-md border border-dashed p-3">
      <summary className="cursor-pointer text-sm">{t("send.cards.buttons")}</summary>
      <div className="mt-3 space-y-3">{children}</div>
    </details>
  );
}

/** The slots shown with JavaScript: those with something in them, and at least `min`. */
const initiallyShown = (count: number, filled: (i: number) => boolean, min: number) => {
  let last = min - 1;
  for (let i = 0; i < count; i++) if (filled(i)) last = Math.max(last, i);
  return Array.from({ length: count }, (_, i) => i <= last);
};

/** Empties a slot's inputs (its fieldset) in the form, as the browser would post them. */
function clearSlot(form: HTMLFormElement | null, path: string) {
  if (!form) return;
  for (const el of Array.from(form.elements) as HTMLInputElement[]) {
    if (!el.name?.startsWith(`${path}.`)) continue;
    if (el.tagName === "SELECT") (el as unknown as HTMLSelectElement).selectedIndex = 0;
    else el.value = "";
  }
}

export function RcsSendScreen() {
  const data = useLoaderData<RcsSendData>();
  const reply = useActionData<RcsSendReply>();
  // The form is re-mounted with what was posted when the action answers (and with a template's content when one is loaded).
  return (
    <Composer key={reply ? JSON.stringify(reply.state).length + (reply.previewed ? "p" : "e") + JSON.stringify(reply.errors) : `t${data.templateId}`} data={data} reply={reply} />
  );
}

function Composer({ data, reply }: { data: RcsSendData; reply: RcsSendReply | undefined }) {
  const { t } = useTranslation(["rcs", "common"]);
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const errorText = useErrorText();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const busy = navigation.state === "submitting";
  const start: ComposerState = reply?.state ?? (data.initial as ComposerState);
  const [state, setState] = useState<ComposerState>(start);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const formRef = useRef<HTMLFormElement>(null);

  const cardCount = Math.max(CARD_SLOTS, start.cards.length);
  const suggestionCount = Math.max(SUGGESTION_SLOTS, start.suggestions.length);
  const [cardsShown, setCardsShown] = useState(() =>
    initiallyShown(
      cardCount,
      (i) => {
        const c = start.cards[i];
        return Boolean(c && (c.title || c.description || c.uri || c.suggestions.some((s) => s.text)));
      },
      2,
    ),
  );
  const [suggestionsShown, setSuggestionsShown] = useState(() => initiallyShown(suggestionCount, (i) => Boolean(start.suggestions[i]?.text), 0));
  const [buttonsShown, setButtonsShown] = useState(() =>
    Array.from({ length: cardCount }, (_, i) => initiallyShown(CARD_BUTTONS, (j) => Boolean(start.cards[i]?.suggestions[j]?.text), 0)),
  );

  const errors = reply?.errors ?? {};
  const errs: Errs = (name) => errors[name]?.map((e) => errorText(e));
  const reread = () => formRef.current && setState(stateFromForm(new FormData(formRef.current)));

  const content = previewOf(state);
  const agent = data.agents.find((a) => a.id === state.agent_id) ?? null;
  const cls = previewPriceClass(content as { type?: string; messageText?: string; suggestions?: unknown[] });
  const livePrice = data.prices[cls];
  const quote = reply?.quote ?? null;
  const type = state.type;
  const is = (...types: string[]) => !hydrated || types.includes(type);

  // Errors with no input on this page (e.g. a card slot past the ones shown) go above the form.
  const placedName = (k: string) =>
    [
      "agent_id",
      "to",
      "fallback_sms",
      "content.type",
      "content.messageText",
      "content.messageDescription",
      "content.imageUrl",
      "content.fileUrl",
      "content.suggestions",
      "content.images",
    ].includes(k) ||
    /^content\.suggestions\.(\d+)(\.\w+)?$/.test(k) ||
    /^content\.images\.\d+(\.(title|description|uri|suggestions))?$/.test(k) ||
    /^content\.images\.\d+\.suggestions\.[0-3](\.\w+)?$/.test(k);
  const inRange = (k: string) => {
    const card = /^content\.images\.(\d+)/.exec(k);
    const sug = /^content\.suggestions\.(\d+)/.exec(k);
    return (!card || Number(card[1]) < cardCount) && (!sug || Number(sug[1]) < suggestionCount);
  };
  const loose = Object.entries(errors)
    .filter(([k]) => !(placedName(k) && inRange(k)))
    .flatMap(([, v]) => v);
  const formErrors = [...(reply?.formErrors ?? []), ...loose];

  const slotOpen = (shown: boolean, hasError: boolean, filled: boolean) => hasError || filled || (hydrated && shown);
  const hasErrorUnder = (prefix: string) => Object.keys(errors).some((k) => k === prefix || k.startsWith(`${prefix}.`));

  if (data.agents.length === 0) {
    return (
      <div className="space-y-6">
        <PageHeader description={t("send.description")} />
        <Card className="max-w-3xl">
          <CardContent>
            <p className="text-sm text-muted-foreground" data-testid="no-agents">
              {t("send.noAgents")}
            </p>
          </CardContent>
        </Card>
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <PageHeader description={t("send.description")} />
      {data.templates.length ? (
        <Form method="get" id="rcs-template-form" className="flex max-w-3xl flex-wrap items-end gap-2">
          <input type="hidden" name="agent_id" value={state.agent_id} />
          <input type="hidden" name="to" value={state.to} />
          <FormField label={t("send.template")} htmlFor="rcs-template" className="min-w-0 flex-1">
            <NativeSelect
              id="rcs-template"
              name="template"
              defaultValue={data.templateId}
              onChange={(e) => navigate(`/rcs/send?${new URLSearchParams({ template: e.currentTarget.value, agent_id: state.agent_id, to: state.to })}`, { replace: true })}
            >
              <NativeSelectOption value="">{t("send.noTemplate")}</NativeSelectOption>
              {data.templates.map((x) => (
                <NativeSelectOption key={x.id} value={x.id}>
                  {x.name}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </FormField>
          <Button type="submit" variant="secondary" hidden={hydrated}>
            {t("send.loadTemplate")}
          </Button>
        </Form>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_340px] lg:items-start">
        <Card className="min-w-0">
          <CardContent>
            <Form method="post" ref={formRef} onInput={reread} onChange={reread} className="space-y-5" noValidate id="rcs-send-form">
              <CsrfInput />
              <input type="hidden" name="idempotency_key" value={data.idempotencyKey} />
              <FormErrors errors={formErrors} />
              <div className="grid gap-4 sm:grid-cols-2 sm:items-start">
                <FormField label={t("send.agent")} htmlFor="rcs-agent_id" error={errs("agent_id")}>
                  <NativeSelect id="rcs-agent_id" name="agent_id" defaultValue={start.agent_id}>
                    {data.agents.map((a) => (
                      <NativeSelectOption key={a.id} value={a.id}>
                        {a.name}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                </FormField>
                <FormField label={t("send.to")} htmlFor="rcs-to" error={errs("to")} description={t("send.toHint")}>
                  <Input id="rcs-to" name="to" type="tel" defaultValue={start.to} autoComplete="off" placeholder="+5511…" aria-invalid={errs("to") ? true : undefined} />
                </FormField>
              </div>
              <FormField label={t("send.type")} htmlFor={idOf("content.type")} error={errs("content.type")}>
                <NativeSelect id={idOf("content.type")} name={inputName("type")} defaultValue={start.type}>
                  {RCS_TYPES.map((ty) => (
                    <NativeSelectOption key={ty} value={ty}>
                      {t(`send.types.${ty}`)}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </FormField>
              <div hidden={!is("text", "link", "midia", "card")}>
                <FormField
                  label={hydrated && type === "card" ? t("send.cardTitle") : t("send.messageText")}
                  htmlFor={idOf("content.messageText")}
                  error={errs("content.messageText")}
                  description={t("send.messageTextHint")}
                >
                  <Textarea
                    id={idOf("content.messageText")}
                    name={inputName("messageText")}
                    defaultValue={start.messageText}
                    rows={3}
                    aria-invalid={errs("content.messageText") ? true : undefined}
                  />
                </FormField>
              </div>
              <div hidden={!is("card")}>
                <FormField label={t("send.messageDescription")} htmlFor={idOf("content.messageDescription")} error={errs("content.messageDescription")}>
                  <Textarea id={idOf("content.messageDescription")} name={inputName("messageDescription")} defaultValue={start.messageDescription} rows={2} />
                </FormField>
              </div>
              <div hidden={!is("midia", "card")} className="grid gap-4 sm:grid-cols-2 sm:items-start">
                <FormField label={t("send.imageUrl")} htmlFor={idOf("content.imageUrl")} error={errs("content.imageUrl")} description={t("send.mediaHint")}>
                  <Input id={idOf("content.imageUrl")} name={inputName("imageUrl")} type="url" defaultValue={start.imageUrl} placeholder="https://" autoComplete="off" />
                </FormField>
                <FormField label={t("send.fileUrl")} htmlFor={idOf("content.fileUrl")} error={errs("content.fileUrl")}>
                  <Input id={idOf("content.fileUrl")} name={inputName("fileUrl")} type="url" defaultValue={start.fileUrl} placeholder="https://" autoComplete="off" />
                </FormField>
              </div>

              <section hidden={!is("card-carousel")} className="space-y-3" aria-labelledby="rcs-cards-title" data-testid="rcs-cards">
                <h3 id="rcs-cards-title" className="text-sm font-medium">
                  {t("send.cards.title")}
                </h3>
                <p className="text-xs text-muted-foreground">{t("send.cards.hint")}</p>
                {errs("content.images")?.length ? (
                  <p role="alert" className="text-sm text-destructive" id="rcs-content-images-error">
                    {errs("content.images")?.join(" ")}
                  </p>
                ) : null}
                {Array.from({ length: cardCount }, (_, i) => {
                  const card = start.cards[i] ?? emptyCard();
                  const path = inputName("images", i);
                  const filled = Boolean(card.title || card.description || card.uri);
                  return (
                    <details
                      key={i}
                      className="rounded-md border p-3"
                      hidden={hydrated && !cardsShown[i] && !hasErrorUnder(path)}
                      open={slotOpen(cardsShown[i] ?? false, hasErrorUnder(path), filled) || i < 2}
                      data-card-slot={i}
                    >
                      <summary className="cursor-pointer text-sm font-medium">
                        {t("send.cards.card", { n: i + 1 })}
                        {state.cards[i]?.title ? <span className="text-muted-foreground"> — {state.cards[i].title}</span> : null}
                      </summary>
                      <div className="mt-3 space-y-3">
                        {errs(path)?.length ? (
                          <p role="alert" className="text-sm text-destructive">
                            {errs(path)?.join(" ")}
                          </p>
                        ) : null}
                        <div className="grid gap-3 sm:grid-cols-2">
                          <FormField label={t("send.cards.cardTitle")} htmlFor={idOf(`${path}.title`)} error={errs(`${path}.title`)}>
                            <Input
                              id={idOf(`${path}.title`)}
                              name={`${path}.title`}
                              defaultValue={card.title}
                              autoComplete="off"
                              aria-invalid={errs(`${path}.title`) ? true : undefined}
                            />
                          </FormField>
                          <FormField label={t("send.cards.image")} htmlFor={idOf(`${path}.uri`)} error={errs(`${path}.uri`)}>
                            <Input id={idOf(`${path}.uri`)} name={`${path}.uri`} type="url" defaultValue={card.uri} placeholder="https://" autoComplete="off" />
                          </FormField>
                        </div>
                        <FormField label={t("send.cards.description")} htmlFor={idOf(`${path}.description`)} error={errs(`${path}.description`)}>
                          <Textarea id={idOf(`${path}.description`)} name={`${path}.description`} defaultValue={card.description} rows={2} />
                        </FormField>
                        {errs(`${path}.suggestions`)?.length ? (
                          <p role="alert" className="text-sm text-destructive">
                            {errs(`${path}.suggestions`)?.join(" ")}
                          </p>
                        ) : null}
                        <ButtonsBox hydrated={hydrated} open={card.suggestions.some((x) => x.text) || hasErrorUnder(`${path}.suggestions`)}>
                          {Array.from({ length: CARD_BUTTONS }, (_, j) => {
                            const bpath = `${path}.suggestions.${j}`;
                            const shown = buttonsShown[i]?.[j] ?? false;
                            return (
                              <div key={j} hidden={hydrated && !shown && !hasErrorUnder(bpath)}>
                                <SuggestionFields
                                  path={bpath}
                                  value={hydrated ? (state.cards[i]?.suggestions[j] ?? emptySuggestion()) : (card.suggestions[j] ?? emptySuggestion())}
                                  errs={errs}
                                  hydrated={hydrated}
                                  legend={t("send.cards.button", { n: j + 1 })}
                                />
                                {hydrated ? (
                                  <Button
                                    type="button"
                                    variant="ghost"
                                    size="sm"
                                    onClick={() => {
                                      clearSlot(formRef.current, bpath);
                                      setButtonsShown((b) => b.map((row, x) => (x === i ? row.map((v, y) => (y === j ? false : v)) : row)));
                                      reread();
                                    }}
                                  >
                                    {t("send.cards.removeButton")}
                                  </Button>
                                ) : null}
                              </div>
                            );
                          })}
                        </ButtonsBox>
                        {hydrated ? (
                          <div className="flex flex-wrap gap-2">
                            <Button
                              type="button"
                              variant="outline"
                              size="sm"
                              disabled={(buttonsShown[i] ?? []).every(Boolean)}
                              onClick={() =>
                                setButtonsShown((b) =>
                                  b.map((row, x) => {
                                    if (x !== i) return row;
                                    const next = row.indexOf(false);
                                    return row.map((v, y) => (y === next ? true : v));
                                  }),
                                )
                              }
                            >
                              {t("send.cards.addButton")}
                            </Button>
                            <Button
                              type="button"
                              variant="ghost"
                              size="sm"
                              onClick={() => {
                                clearSlot(formRef.current, path);
                                setCardsShown((s) => s.map((v, x) => (x === i ? false : v)));
                                reread();
                              }}
                            >
                              {t("send.cards.remove")}
                            </Button>
                          </div>
                        ) : null}
                      </div>
                    </details>
                  );
                })}
                {hydrated ? (
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    disabled={cardsShown.filter(Boolean).length >= CARD_SLOTS}
                    onClick={() =>
                      setCardsShown((s) => {
                        const next = s.indexOf(false);
                        return s.map((v, x) => (x === next ? true : v));
                      })
                    }
                  >
                    {t("send.cards.add")}
                  </Button>
                ) : null}
              </section>

              <section className="space-y-3" aria-labelledby="rcs-suggestions-title" data-testid="rcs-suggestions">
                <h3 id="rcs-suggestions-title" className="text-sm font-medium">
                  {t("send.suggestions.title")}
                </h3>
                <p className="text-xs text-muted-foreground">{t("send.suggestions.hint")}</p>
                {errs("content.suggestions")?.length ? (
                  <p role="alert" className="text-sm text-destructive">
                    {errs("content.suggestions")?.join(" ")}
                  </p>
                ) : null}
                {hydrated ? null : (
                  <details open={start.suggestions.some((s) => s.text) || hasErrorUnder("content.suggestions")} className="rounded-md border p-3">
                    <summary className="cursor-pointer text-sm">{t("send.suggestions.slots", { n: suggestionCount })}</summary>
                    <div className="mt-3 space-y-3">
                      {Array.from({ length: suggestionCount }, (_, i) => (
                        <SuggestionFields
                          key={i}
                          path={inputName("suggestions", i)}
                          value={start.suggestions[i] ?? emptySuggestion()}
                          errs={errs}
                          hydrated={false}
                          legend={t("send.suggestions.one", { n: i + 1 })}
                        />
                      ))}
                    </div>
                  </details>
                )}
                {hydrated
                  ? Array.from({ length: suggestionCount }, (_, i) => {
                      const path = inputName("suggestions", i);
                      const shown = suggestionsShown[i] || hasErrorUnder(path);
                      return (
                        <div key={i} hidden={!shown}>
                          <SuggestionFields
                            path={path}
                            value={state.suggestions[i] ?? start.suggestions[i] ?? emptySuggestion()}
                            errs={errs}
                            hydrated
                            legend={t("send.suggestions.one", { n: i + 1 })}
                          />
                          <Button
                            type="button"
                            variant="ghost"
                            size="sm"
                            onClick={() => {
                              clearSlot(formRef.current, path);
                              setSuggestionsShown((s) => s.map((v, x) => (x === i ? false : v)));
                              reread();
                            }}
                          >
                            {t("send.suggestions.remove")}
                          </Button>
                        </div>
                      );
                    })
                  : null}
                {hydrated ? (
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    disabled={suggestionsShown.filter(Boolean).length >= SUGGESTION_SLOTS}
                    onClick={() =>
                      setSuggestionsShown((s) => {
                        const next = s.indexOf(false);
                        return s.map((v, x) => (x === next ? true : v));
                      })
                    }
                  >
                    {t("send.suggestions.add")}
                  </Button>
                ) : null}
              </section>

              <label className="flex items-start gap-2 text-sm">
                <input type="checkbox" name="fallback_sms" defaultChecked={start.fallback_sms} className="mt-0.5" />
                <span>
                  {t("send.fallback")}
                  <span className="block text-xs text-muted-foreground">{t("send.fallbackHint")}</span>
                </span>
              </label>

              <div className="flex flex-wrap gap-2">
                <Button type="submit" name="intent" value="preview" variant="secondary" disabled={busy}>
                  {t("send.preview")}
                </Button>
                <Button type="submit" name="intent" value="send" disabled={busy}>
                  {busy && navigation.formData?.get("intent") === "send" ? t("send.sending") : t("send.submit")}
                </Button>
              </div>
            </Form>
          </CardContent>
        </Card>
        <aside className="space-y-3 lg:sticky lg:top-4" aria-label={t("preview.label")}>
          <div className="rounded-md border bg-card p-3 text-sm" data-testid="rcs-price" role="status">
            {hydrated ? (
              <p>
                {t("send.price", {
                  class: t(`send.priceClass.${cls}`),
                  price: livePrice === null ? t("send.notOffered") : formatMoney(livePrice, data.prices.currency, lng),
                })}
              </p>
            ) : quote ? (
              <p>{t("send.price", { class: t(`send.priceClass.${quote.price_class}`), price: formatMoney(quote.price, quote.currency, lng) })}</p>
            ) : (
              <p className="text-muted-foreground">{t("send.priceAfterPreview")}</p>
            )}
            <p className="mt-1 text-xs text-muted-foreground">{t("send.priceRule")}</p>
          </div>
          <RcsPreview content={hydrated || reply?.previewed || !reply ? content : null} agent={agent} />
        </aside>
      </div>
    </div>
  );
}
