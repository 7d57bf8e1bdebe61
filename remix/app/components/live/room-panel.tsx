/**
 * The right side of the workspace: the room's details (protocol, channel, contact, department,
 * tags, tabulation) and every action of the room flow as a plain POST form (CSRF, intent, room id),
 * so each works without JavaScript. Transfers open in a disclosure that needs no script.
 */
import { Form } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import type { RoomView } from "~/lib/live-state";
import { LinkedDeals, type LinkedDealsPanel } from "~/components/pipelines/linked-deals";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type PanelOptions = {
  tabulations: Array<{ id: string; name: string }>;
  departments: Array<{ id: string; name: string }>;
  agents: Array<{ id: string; name: string; email: string; status: string }>;
  tabulationRequired: boolean;
  macros: Array<{ id: string; name: string }>;
  samples: Array<{ id: string; key: string; message: string }>;
};

export type PanelNames = { department: string | null; tabulation: string | null; agent: string | null; transfer_to: string | null } | null;

function Action({
  action,
  intent,
  roomId,
  label,
  variant = "outline",
  children,
}: {
  action: string;
  intent: string;
  roomId: string;
  label: string;
  variant?: "outline" | "default" | "destructive" | "secondary";
  children?: React.ReactNode;
}) {
  return (
    <Form method="post" action={action} className="space-y-2">
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="room_id" value={roomId} />
      {children}
      <Button type="submit" variant={variant} size="sm" className="w-full">
        {label}
      </Button>
    </Form>
  );
}

function Disclosure({ summary, children, open }: { summary: string; children: React.ReactNode; open?: boolean }) {
  return (
    <details className="rounded-md border" open={open}>
      <summary className="cursor-pointer list-none px-3 py-2 text-sm font-medium hover:bg-accent">{summary}</summary>
      <div className="space-y-2 border-t p-3">{children}</div>
    </details>
  );
}

export function RoomPanel({
  room,
  me,
  supervisor,
  options,
  names,
  action,
  lng,
  errors,
  errorIntent,
  deals,
}: {
  room: RoomView;
  me: string;
  supervisor: boolean;
  options: PanelOptions;
  names: PanelNames;
  action: string;
  lng: Lng;
  errors?: string[] | null;
  errorIntent?: string | null;
  /** The room's deals on workflow boards and "create deal" (issue 22); null when boards are not available. */
  deals?: LinkedDealsPanel | null;
}) {
  const { t } = useTranslation("liveDesk");
  const mine = room.agent_id === me || supervisor;
  const open = room.status === "OPEN";
  const offeredToMe = room.locked && room.transfer_type === "agent" && room.transfer_to_user_id === me;
  const err = (intent: string) => (errorIntent === intent ? errors : null);
  return (
    <aside className="space-y-4 overflow-y-auto border-l p-4 text-sm" aria-label={t("details.label")} data-testid="room-panel">
      <section className="space-y-1">
        <h2 className="font-semibold">{t("details.title")}</h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          <dt className="text-muted-foreground">{t("details.protocol")}</dt>
          <dd data-testid="room-protocol">{room.protocol}</dd>
          <dt className="text-muted-foreground">{t("details.status")}</dt>
          <dd>
            <Badge variant={open ? "success" : room.status === "QUEUE" ? "warning" : "secondary"}>{t(`roomStatus.${room.status}`)}</Badge>
            {room.locked ? (
              <Badge variant="outline" className="ml-1">
                {t("details.locked")}
              </Badge>
            ) : null}
          </dd>
          <dt className="text-muted-foreground">{t("details.channel")}</dt>
          <dd>{t(`channels.${room.channel}`, { defaultValue: room.channel })}</dd>
          <dt className="text-muted-foreground">{t("details.contact")}</dt>
          <dd>
            {room.contact_id ? (
              <a className="underline" href={`/contacts/${room.contact_id}`}>
                {room.username || t("list.anonymous")}
              </a>
            ) : (
              room.username || t("list.anonymous")
            )}
          </dd>
          {room.email ? (
            <>
              <dt className="text-muted-foreground">{t("details.email")}</dt>
              <dd className="break-all">{room.email}</dd>
            </>
          ) : null}
          {room.phone ? (
            <>
              <dt className="text-muted-foreground">{t("details.phone")}</dt>
              <dd>{room.phone}</dd>
            </>
          ) : null}
          <dt className="text-muted-foreground">{t("details.department")}</dt>
          <dd>{names?.department ?? t("details.none")}</dd>
          <dt className="text-muted-foreground">{t("details.agent")}</dt>
          <dd>{names?.agent ?? t("details.none")}</dd>
          <dt className="text-muted-foreground">{t("details.createdAt")}</dt>
          <dd>{formatDate(room.created_at, lng, true)}</dd>
          {room.closed_at ? (
            <>
              <dt className="text-muted-foreground">{t("details.closedAt")}</dt>
              <dd>{formatDate(room.closed_at, lng, true)}</dd>
            </>
          ) : null}
          {room.locked && room.transfer_type === "agent" ? (
            <>
              <dt className="text-muted-foreground">{t("details.transferTo")}</dt>
              <dd>{names?.transfer_to ?? "—"}</dd>
            </>
          ) : null}
        </dl>
        {mine ? (
          <Disclosure summary={t("contactEdit.summary")} open={Boolean(err("contact"))}>
            <Action action={action} intent="contact" roomId={room.id} label={t("contactEdit.save")}>
              <FormErrors errors={err("contact")} />
              <Label htmlFor="room-username">{t("contactEdit.name")}</Label>
              <Input id="room-username" name="username" defaultValue={room.username ?? ""} key={`u${room.username}`} maxLength={120} autoComplete="off" />
              <Label htmlFor="room-email">{t("details.email")}</Label>
              <Input id="room-email" name="email" type="email" defaultValue={room.email ?? ""} key={`e${room.email}`} autoComplete="off" />
              <Label htmlFor="room-phone">{t("details.phone")}</Label>
              <Input id="room-phone" name="phone" type="tel" defaultValue={room.phone ?? ""} key={`p${room.phone}`} autoComplete="off" />
              <p className="text-xs text-muted-foreground">{t("contactEdit.help")}</p>
            </Action>
          </Disclosure>
        ) : null}
      </section>

      {offeredToMe ? (
        <section className="space-y-2 rounded-md border border-primary/40 bg-primary/5 p-3" role="alert">
          <p className="font-medium">{t("incoming.prompt", { protocol: room.protocol })}</p>
          <FormErrors errors={err("accept") ?? err("refuse")} />
          <div className="grid grid-cols-2 gap-2">
            <Action action={action} intent="accept" roomId={room.id} label={t("actions.accept")} variant="default" />
            <Action action={action} intent="refuse" roomId={room.id} label={t("actions.refuse")} />
          </div>
        </section>
      ) : null}

      <section className="space-y-2">
        <h2 className="font-semibold">{t("actions.title")}</h2>
        {room.status === "QUEUE" ? (
          <>
            <FormErrors errors={err("take")} />
            <Action action={action} intent="take" roomId={room.id} label={t("actions.take")} variant="default" />
          </>
        ) : null}

        {open && mine && !room.locked ? (
          <>
            <Disclosure summary={t("actions.close")} open={Boolean(err("close")?.length)}>
              <Action action={action} intent="close" roomId={room.id} label={t("actions.closeConfirm")} variant="destructive">
                <FormErrors errors={err("close")} />
                <Label htmlFor="close-tabulation">
                  {t("details.tabulation")}
                  {options.tabulationRequired ? " *" : ""}
                </Label>
                <NativeSelect id="close-tabulation" name="tabulation_id" defaultValue={room.tabulation_id ?? ""}>
                  <NativeSelectOption value="">{t("details.noTabulation")}</NativeSelectOption>
                  {options.tabulations.map((tab) => (
                    <NativeSelectOption key={tab.id} value={tab.id}>
                      {tab.name}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </Action>
            </Disclosure>
            {options.samples.length ? (
              <Disclosure summary={t("actions.sample")} open={Boolean(err("sample")?.length)}>
                <Action action={action} intent="sample" roomId={room.id} label={t("actions.sendSample")}>
                  <FormErrors errors={err("sample")} />
                  <Label htmlFor="room-sample">{t("actions.sample")}</Label>
                  <NativeSelect id="room-sample" name="sample_id" required defaultValue="">
                    <NativeSelectOption value="" disabled>
                      {t("actions.chooseSample")}
                    </NativeSelectOption>
                    {options.samples.map((x) => (
                      <NativeSelectOption key={x.id} value={x.id}>{`/${x.key} · ${x.message.slice(0, 60)}`}</NativeSelectOption>
                    ))}
                  </NativeSelect>
                </Action>
              </Disclosure>
            ) : null}
            {options.macros.length ? (
              <Disclosure summary={t("actions.macro")} open={Boolean(err("macro")?.length)}>
                <Action action={action} intent="macro" roomId={room.id} label={t("actions.applyMacro")}>
                  <FormErrors errors={err("macro")} />
                  <Label htmlFor="room-macro">{t("actions.macro")}</Label>
                  <NativeSelect id="room-macro" name="macro_id" required defaultValue="">
                    <NativeSelectOption value="" disabled>
                      {t("actions.chooseMacro")}
                    </NativeSelectOption>
                    {options.macros.map((m) => (
                      <NativeSelectOption key={m.id} value={m.id}>
                        {m.name}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                </Action>
              </Disclosure>
            ) : null}
            <Disclosure summary={t("actions.transferAgent")} open={Boolean(err("transfer_agent")?.length)}>
              <Action action={action} intent="transfer_agent" roomId={room.id} label={t("actions.transfer")}>
                <FormErrors errors={err("transfer_agent")} />
                <Label htmlFor="transfer-agent">{t("actions.agent")}</Label>
                <NativeSelect id="transfer-agent" name="agent_id" required defaultValue="">
                  <NativeSelectOption value="" disabled>
                    {t("actions.chooseAgent")}
                  </NativeSelectOption>
                  {options.agents.map((a) => (
                    <NativeSelectOption key={a.id} value={a.id}>{`${a.name || a.email} · ${t(`agentStatus.${a.status}`)}`}</NativeSelectOption>
                  ))}
                </NativeSelect>
              </Action>
            </Disclosure>
            <Disclosure summary={t("actions.transferDepartment")} open={Boolean(err("transfer_department")?.length)}>
              <Action action={action} intent="transfer_department" roomId={room.id} label={t("actions.transfer")}>
                <FormErrors errors={err("transfer_department")} />
                <Label htmlFor="transfer-department">{t("details.department")}</Label>
                <NativeSelect id="transfer-department" name="department_id" required defaultValue="">
                  <NativeSelectOption value="" disabled>
                    {t("actions.chooseDepartment")}
                  </NativeSelectOption>
                  {options.departments.map((d) => (
                    <NativeSelectOption key={d.id} value={d.id}>
                      {d.name}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </Action>
            </Disclosure>
            <FormErrors errors={err("return")} />
            <Action action={action} intent="return" roomId={room.id} label={t("actions.return")} />
          </>
        ) : null}

        {open && mine && room.idle ? (
          <>
            <FormErrors errors={err("resume_idle")} />
            <Action action={action} intent="resume_idle" roomId={room.id} label={t("actions.resumeIdle")} variant="default" />
          </>
        ) : null}

        {room.status === "CLOSED" && room.offline && !room.solved ? (
          <>
            <FormErrors errors={err("resume_offline") ?? err("solve")} />
            <Action action={action} intent="resume_offline" roomId={room.id} label={t("actions.resumeOffline")} variant="default" />
            <Action action={action} intent="solve" roomId={room.id} label={t("actions.solve")} />
          </>
        ) : null}
      </section>

      {open && mine ? (
        <>
          <section className="space-y-2">
            <h2 className="font-semibold">{t("details.tabulation")}</h2>
            <Action action={action} intent="tabulation" roomId={room.id} label={t("actions.saveTabulation")}>
              <FormErrors errors={err("tabulation")} />
              <Label htmlFor="room-tabulation" className="sr-only">
                {t("details.tabulation")}
              </Label>
              <NativeSelect id="room-tabulation" name="tabulation_id" required defaultValue={room.tabulation_id ?? ""}>
                <NativeSelectOption value="" disabled>
                  {t("details.noTabulation")}
                </NativeSelectOption>
                {options.tabulations.map((tab) => (
                  <NativeSelectOption key={tab.id} value={tab.id}>
                    {tab.name}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </Action>
          </section>
          <section className="space-y-2">
            <h2 className="font-semibold">{t("details.tags")}</h2>
            <div className="flex flex-wrap gap-1">
              {room.tags.map((tag) => (
                <Badge key={tag} variant="secondary">
                  {tag}
                </Badge>
              ))}
            </div>
            <Action action={action} intent="tags" roomId={room.id} label={t("actions.saveTags")}>
              <FormErrors errors={err("tags")} />
              <Label htmlFor="room-tags">{t("details.tagsHelp")}</Label>
              <Input id="room-tags" name="tags" defaultValue={room.tags.join(", ")} key={room.tags.join(",")} />
            </Action>
          </section>
        </>
      ) : room.tags.length ? (
        <section className="flex flex-wrap gap-1">
          {room.tags.map((tag) => (
            <Badge key={tag} variant="secondary">
              {tag}
            </Badge>
          ))}
        </section>
      ) : null}
      {deals ? <LinkedDeals panel={deals} roomId={room.id} compact /> : null}
    </aside>
  );
}
