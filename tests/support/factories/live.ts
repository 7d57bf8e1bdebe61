/** Live chat: widget settings, departments, tabulations, opening hours and holidays, samples, rooms and agents' states. */
import { type Query, type SqlExpression, insertRow, insertRows, runDb, sql, todayInSaoPaulo, updateRows, given } from "./sql";

const random = () => Math.random().toString(36).slice(2, 12);

export type LiveSettingsFields = {
  acceptanceOption?: "automatic" | "manual";
  defaultCapacity?: number;
  queuedEnabled?: boolean;
  tabulationRequired?: boolean;
  idleMinutes?: number;
};

/**
 * The account's live settings row, created with a new widget key or, when it exists, updated with
 * the given fields (the widget key stays). Answers the widget key a visitor writes to.
 */
export async function makeLiveSettings(accountId: string, fields: LiveSettingsFields = {}, q: Query = runDb): Promise<string> {
  const row = { accountId, widgetKey: `wk_${random()}${random()}`, ...given(fields), updatedAt: sql("now()") };
  const update = Object.keys(fields)
    .filter((k) => fields[k as keyof LiveSettingsFields] !== undefined)
    .map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))
    .concat("updated_at");
  const [settings] = await insertRows<{ widget_key: string }>("live_settings", [row], { returning: "widget_key", onConflict: { target: "(account_id)", update } }, q);
  return settings.widget_key;
}

/** Changes an existing live settings row; answers its widget key. */
export async function setLiveSettings(accountId: string, fields: LiveSettingsFields, q: Query = runDb): Promise<string> {
  const [settings] = await updateRows<{ widget_key: string }>("live_settings", { accountId }, fields, "widget_key", q);
  if (!settings) throw new Error(`account ${accountId} has no live settings`);
  return settings.widget_key;
}

/** Departments of an account, in the order given; answers their ids in that order. */
export async function makeDepartments(accountId: string, departments: Array<{ name: string; status?: "active" | "inactive" }>, q: Query = runDb): Promise<string[]> {
  const rows = await insertRows(
    "departments",
    departments.map((d) => ({ accountId, ...given(d) })),
    {},
    q,
  );
  return rows.map((r) => r.id);
}

export async function makeDepartment(accountId: string, name = "Suporte", q: Query = runDb): Promise<string> {
  const [id] = await makeDepartments(accountId, [{ name }], q);
  return id;
}

/** A tabulation (how an agent classifies a closed room). */
export async function makeTabulation(accountId: string, name = `Resolvido ${random()}`, q: Query = runDb): Promise<string> {
  return (await insertRow("live_tabulations", { accountId, name }, "id", q)).id;
}

/** A holiday, by default today in São Paulo: the account is closed for live chat all day. */
export async function makeHoliday(accountId: string, fields: { name?: string; day?: string | SqlExpression } = {}, q: Query = runDb): Promise<string> {
  return (await insertRow("live_holidays", { accountId, name: "Feriado", day: todayInSaoPaulo, ...given(fields) }, "id", q)).id;
}

/** Opening hours for one weekday (0 = Sunday), e.g. { weekday: 1, opens: "08:00", closes: "18:00" }. */
export async function makeOpeningHours(accountId: string, fields: { weekday: number; opens: string; closes: string }, q: Query = runDb): Promise<string> {
  return (await insertRow("live_opening_hours", { accountId, ...given(fields) }, "id", q)).id;
}

/** A canned response (sample); by default shared with the whole account. */
export async function makeLiveSample(accountId: string, fields: { key: string; message: string; forAll?: boolean }, q: Query = runDb): Promise<string> {
  return (await insertRow("live_samples", { accountId, forAll: true, ...given(fields) }, "id", q)).id;
}

export type LiveRoomFields = {
  channel?: string;
  username?: string;
  status?: "QUEUE" | "OPEN" | "CLOSED";
  offline?: boolean;
  idle?: boolean;
  agentId?: string | null;
  assignedAt?: Date | SqlExpression;
  closedAt?: Date | SqlExpression;
  createdAt?: Date | string | SqlExpression;
  lastMessageAt?: Date | SqlExpression;
};

/** Rooms a visitor never wrote in through a door (offline contacts, old transcripts): `count` alike rows, each its own visitor and protocol. */
export async function makeLiveRooms(accountId: string, count: number, fields: LiveRoomFields = {}, q: Query = runDb): Promise<string[]> {
  const rows = Array.from({ length: count }, () => ({ channel: "webchat", externalId: `v_${random()}`, protocol: `T${random()}`, accountId, ...given(fields) }));
  return (await insertRows("live_rooms", rows, {}, q)).map((r) => r.id);
}

/** One closed room (see makeLiveRooms). */
export async function makeLiveRoom(accountId: string, fields: LiveRoomFields = {}, q: Query = runDb): Promise<string> {
  const [id] = await makeLiveRooms(accountId, 1, { status: "CLOSED", closedAt: sql("now()"), ...given(fields) }, q);
  return id;
}

export async function setLiveRoom(roomId: string, fields: LiveRoomFields, q: Query = runDb): Promise<void> {
  await updateRows("live_rooms", { id: roomId }, fields, "id", q);
}

/** Closes every room of the account still open or queued (and unlocks them), so a test starts with free agents. */
export async function closeLiveRooms(accountId: string, q: Query = runDb): Promise<void> {
  await q(`UPDATE live_rooms SET status = 'CLOSED', closed_at = now(), locked = false WHERE account_id = $1 AND status <> 'CLOSED'`, [accountId]);
}

export type LiveAgentFields = { status?: "AVAILABLE" | "UNAVAILABLE" | "SHORT_BREAK" | "BREAK" | "LONG_BREAK" | "OFFLINE"; capacity?: number | null };

/** Sets an agent's live state in one account; without a user id, every agent's of the account. */
export async function setLiveAgents(accountId: string, userId: string | null, fields: LiveAgentFields, q: Query = runDb): Promise<void> {
  await updateRows("live_agents", userId ? { accountId, userId } : { accountId }, fields, "user_id", q);
}
