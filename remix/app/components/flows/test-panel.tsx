/**
 * The builder's test panel (issue 20): the saved draft against a simulated visitor
 * (api/flows/test-run.ts). A chat-like transcript (the bot's bubbles, whose buttons answer with
 * their text; the visitor's; notes in muted text), a message box and Send, Restart, "Skip the
 * wait" while a timer runs, and the variables. Every control is a plain POST form (intent=test)
 * carrying the simulated state and the transcript so far as hidden JSON, so it works without
 * JavaScript (the route's action answers the page again); with it, one fetcher posts them and the
 * canvas keeps its unsaved work.
 */
import { useFetcher } from "@remix-run/react";
import type { ReactNode } from "react";
import type { TestEntry } from "~api/flows/test-run";
import { CsrfInput, useErrorText } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { useTranslation } from "~/lib/react-i18n";

/** What the route's action answers for intent=test. */
export type TestPanelData = {
  transcript: TestEntry[];
  state?: unknown;
  status: string | null;
  can_skip: boolean;
  waiting: string | null;
  vars: Record<string, string>;
  error?: string;
  params?: Record<string, unknown>;
};

/** The fetcher shared by the panel's forms. */
const FETCHER = "flow-test";

type Props = {
  /** The last answer without JavaScript (the action's data), if it was a test turn. */
  answer?: TestPanelData;
  /** The canvas has changes not saved: the test runs the saved draft. */
  dirty: boolean;
  /** The saved draft has issues: the test is refused (422) until they are fixed. */
  hasIssues: boolean;
};

export function TestPanel({ answer, dirty, hasIssues }: Props) {
  const { t } = useTranslation("flows");
  const errorText = useErrorText();
  const fetcher = useFetcher<{ test?: TestPanelData }>({ key: FETCHER });
  const data = fetcher.data?.test ?? answer;
  const busy = fetcher.state !== "idle";
  const transcript = data?.transcript ?? [];
  const started = data?.state !== undefined && data?.state !== null;
  const answering = started && data?.status === "waiting" && data.waiting === "answer";
  const lastButtons = answering ? [...transcript].reverse().find((e) => e.kind === "bot")?.buttons : undefined;
  const hidden = (
    <>
      <CsrfInput />
      <input type="hidden" name="intent" value="test" />
      <input type="hidden" name="state" value={started ? JSON.stringify(data?.state) : ""} />
      <input type="hidden" name="transcript" value={JSON.stringify(transcript)} />
    </>
  );
  // With JavaScript the fetcher posts (the canvas stays); without it, a plain form (the page answers again).
  const turnForm = (children: ReactNode, className?: string) => (
    <fetcher.Form method="post" className={className} preventScrollReset>
      {hidden}
      {children}
    </fetcher.Form>
  );
  let bubbleWithButtons = -1;
  if (lastButtons) bubbleWithButtons = transcript.length - 1 - [...transcript].reverse().findIndex((e) => e.kind === "bot");
  return (
    <Card data-testid="flow-test">
      <CardHeader>
        <CardTitle>{t("test.title")}</CardTitle>
        <CardDescription>{t("test.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {dirty ? (
          <div className="space-y-2 rounded-md border border-amber-500 p-2 text-sm" role="status" data-testid="flow-test-unsaved">
            <p>{t("test.unsaved")}</p>
            <Button type="submit" form="flow-save-form" name="intent" value="save" size="sm" variant="outline">
              {t("test.saveFirst")}
            </Button>
          </div>
        ) : null}
        {hasIssues ? <p className="text-sm text-muted-foreground">{t("test.hasErrors")}</p> : null}
        <ol
          className="max-h-[28rem] space-y-2 overflow-y-auto rounded-md border bg-muted/30 p-2"
          aria-label={t("test.transcript")}
          aria-live="polite"
          data-testid="flow-test-transcript"
        >
          {transcript.length === 0 ? <li className="text-sm text-muted-foreground">{t("test.empty")}</li> : null}
          {transcript.map((e, i) =>
            e.kind === "note" ? (
              <li key={i} className="text-center text-xs italic text-muted-foreground" data-entry="note">
                {e.text}
              </li>
            ) : e.kind === "visitor" ? (
              <li key={i} className="flex justify-end" data-entry="visitor">
                <span className="sr-only">{t("test.visitor")}: </span>
                <span className="max-w-[85%] whitespace-pre-wrap break-words rounded-lg bg-primary px-3 py-2 text-sm text-primary-foreground">{e.text}</span>
              </li>
            ) : (
              <li key={i} className="flex flex-col items-start gap-1" data-entry="bot">
                <span className="max-w-[85%] whitespace-pre-wrap break-words rounded-lg border bg-background px-3 py-2 text-sm">
                  <span className="sr-only">{t("test.bot")}: </span>
                  {e.text}
                  {e.media_url ? (
                    <a href={e.media_url} className="block text-xs underline" rel="noreferrer noopener" target="_blank">
                      {e.media_url}
                    </a>
                  ) : null}
                </span>
                {e.buttons?.length ? (
                  i === bubbleWithButtons ? (
                    turnForm(
                      e.buttons.map((b) => (
                        <Button key={b} type="submit" size="sm" variant="outline" name="answer" value={b} disabled={busy} aria-label={t("test.answerWith", { text: b })}>
                          {b}
                        </Button>
                      )),
                      "flex flex-wrap gap-1",
                    )
                  ) : (
                    <span className="flex flex-wrap gap-1">
                      {e.buttons.map((b) => (
                        <span key={b} className="rounded-md border px-2 py-0.5 text-xs text-muted-foreground">
                          {b}
                        </span>
                      ))}
                    </span>
                  )
                ) : null}
              </li>
            ),
          )}
        </ol>
        {data?.error ? (
          <p className="text-sm text-destructive" role="alert" data-testid="flow-test-error">
            {errorText(data.error, data.params)}
          </p>
        ) : null}
        {started && data?.status ? (
          <p className="text-xs text-muted-foreground" data-testid="flow-test-status">
            {t(`test.status.${data.status}`, { defaultValue: data.status })}
          </p>
        ) : null}
        {answering
          ? turnForm(
              <>
                <Input name="message" aria-label={t("test.message")} maxLength={4096} autoComplete="off" required key={transcript.length} />
                <Button type="submit" name="op" value="send" disabled={busy}>
                  {t("test.send")}
                </Button>
              </>,
              "flex gap-2",
            )
          : null}
        <div className="flex flex-wrap gap-2">
          {data?.can_skip
            ? turnForm(
                <Button type="submit" name="op" value="skip" variant="outline" size="sm" disabled={busy}>
                  {t("test.skip")}
                </Button>,
              )
            : null}
          {turnForm(
            <Button type="submit" name="op" value="restart" variant={started ? "outline" : "default"} size="sm" disabled={busy || hasIssues}>
              {started ? t("test.restart") : t("test.start")}
            </Button>,
          )}
        </div>
        <div>
          <h3 className="text-sm font-medium">{t("test.vars")}</h3>
          {data && Object.keys(data.vars ?? {}).length ? (
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 text-sm" data-testid="flow-test-vars">
              {Object.entries(data.vars).map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className="font-mono text-xs">{k}</dt>
                  <dd className="break-words">{v}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="text-sm text-muted-foreground">{t("test.noVars")}</p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
