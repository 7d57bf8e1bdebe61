/**
 * The embeddable webchat widget (built to public/widget.js by api/cli/widget-build.mjs):
 *
 *   <script src="https://APP/widget.js" data-key="WIDGET_KEY" async></script>
 *
 * Plain TypeScript, no framework, rendered in a shadow DOM so the host page's styles neither leak
 * in nor out. `data-mode="page"` (the hosted /webchat page) fills the page and stays open.
 *
 * Talks to the public widget API (api/live/routes.ts `widgetRoutes`, api/live/channel-routes.ts
 * upload) and to the realtime service over a websocket (/realtime/ws?visitor=<realtime token>,
 * ADR 015) through the transport the agents' client uses too (remix/app/lib/live-transport.ts:
 * resume by last stream id, reconnect after a 10-second countdown), polling while the socket is
 * down. Visitor id and token live in localStorage per widget key; the sound toggle in
 * `mensageria-widget:sound` (one for every widget of the site).
 *
 * Issue 19: the greeting (`welcome`) is the first bubble and the offline message shows when no agent
 * attends; agents' messages carry their first name and an initials avatar; every message its time
 * (HH:mm, the visitor's own clock); agent messages that arrive while the panel is closed count on
 * the launcher's badge; a header button turns a short WebAudio tone on new agent messages on and
 * off. Edit/Delete sit only on the visitor's messages after the other side's last one, shown on
 * hover or keyboard focus. Host page CSP: no inline script, no eval; the styles go in as a
 * constructed stylesheet (adoptedStyleSheets), which style-src does not restrict, or, where that
 * is missing, as a <link> to APP/widget.css (style-src APP) (README, "Embedding the widget").
 */
import { TYPING_EVERY_MS, TYPING_SHOW_MS, WIDGET_CONFIG_EVERY_MS } from "../../api/live/limits";
import { type LiveCommandError, type LiveEventFrame, type LiveFrame, LiveTransport } from "../../remix/app/lib/live-transport";
import { renderMarkup } from "../../remix/app/lib/markup";
import en from "../../public/locales/en/widget.json";
import es from "../../public/locales/es/widget.json";
import ptBR from "../../public/locales/pt-BR/widget.json";
import zh from "../../public/locales/zh/widget.json";
import { EMOJI } from "./emoji";
import { CSS } from "./style";

/** The strings every language has; a plural family (`unread_*`) has only its language's categories. */
type Dict = Omit<typeof ptBR, "unread_one" | "unread_zero" | "unread_many">;
type Attachment = { type: string; uri: string; name: string; media_type: string };
type Message = {
  id: string;
  author: "visitor" | "agent" | "bot" | "system";
  user_id: string | null;
  body: string;
  attachments: Attachment[];
  status: string;
  edited: boolean;
  client_id: string | null;
  created_at: string;
  suggestions?: string[];
};
type Room = { id: string; status: "QUEUE" | "OPEN" | "CLOSED" | "BOT"; protocol: string; agent_id: string | null };
type Participant = { id: string; name: string };
type Config = {
  key: string; enabled: boolean; title_online: string; title_offline: string; welcome: string; offline_message: string; agents_online: boolean; position: "left" | "center" | "right";
  highlight_color: string; attachments: boolean; emoji: boolean; open: boolean; queue_enabled: boolean;
  colors: Record<"header" | "launcher" | "messageList" | "sentMessage" | "receivedMessage" | "userInput" | "userList", { bg: string; text: string }>;
  departments: Array<{ id: string; name: string; open: boolean }>;
};
/** What a live event of the visitor's room may carry (api/live/events). */
type EventData = { by?: string; name?: string; message?: Message; room?: Partial<Room>; ids?: string[] };
type Conversation = { room: Room | null; messages: Message[]; position: number | null; participants: Participant[]; realtime_token: string | null; resume_from?: string | null };

/** Spec section 9. */
const AUTO_SCROLL_PX = 600;
const POLL_MS = 5000;
const COMMAND_TIMEOUT_MS = 10_000;
/** Close codes (realtime/connection.ts CLOSE): the token expired, or the room is no longer this visitor's. */
const TOKEN_REFUSED = [4401, 4403];
/** The content hash of public/widget.css (api/cli/widget-bundle.ts). */
declare const WIDGET_CSS_V: string;


const script = document.currentScript as HTMLScriptElement | null;

function pickLang(): Dict {
  const raw = (script?.dataset.lang || document.documentElement.lang || navigator.language || "pt-BR").toLowerCase();
  return raw.startsWith("en") ? en : raw.startsWith("es") ? es : raw.startsWith("zh") ? zh : ptBR;
}

function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, unknown> = {}, ...children: Array<Node | string | null | false>): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v as EventListener);
    else if (k === "class") el.className = String(v);
    else if (k in el && typeof v !== "string") (el as unknown as Record<string, unknown>)[k] = v;
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== false) el.append(c);
  return el;
}

const svg = (path: string) => {
  const el = document.createElement("span");
  el.className = "svg";
  el.innerHTML = `<svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="${path}"/></svg>`;
  return el;
};
const CHAT = "M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z";
const CLIP = "m21.4 11.1-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5";
const CLOSE = "M18 6 6 18M6 6l12 12";
const BELL = "M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9m-4.3 13a2 2 0 0 1-3.4 0";
const SOUND_KEY = "mensageria-widget:sound";

const fill = (s: string, vars: Record<string, string | number>) => s.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k) => String(vars[k] ?? ""));
const clientId = () => `w_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

export class Widget {
  readonly t: Dict = pickLang();
  private lang = this.t === en ? "en" : this.t === es ? "es" : this.t === zh ? "zh" : "pt-BR";
  /** Agent messages that arrived while the panel was closed (the launcher's badge). */
  private unread = 0;
  private sound = true;
  private audio: AudioContext | undefined;
  /** The first conversation is history, not news: only later agent messages count and sound. */
  private loaded = false;
  private base: string;
  private key: string;
  private page: boolean;
  private store: string;
  private root!: ShadowRoot;
  private config!: Config;
  /** When the config was last read (Date.now()). */
  private configAt = 0;
  private visitor: { visitor_id: string; visitor_token: string } | null = null;
  private room: Room | null = null;
  private messages = new Map<string, Message>();
  private participants: Participant[] = [];
  private position: number | null = null;
  private open = false;
  private showUsers = false;
  private editing: Message | null = null;
  private file: File | null = null;
  private departmentId = "";
  private offlineSent = false;
  private error = "";
  /** Hides the agent's "typing…"; when this visitor last told the agent they type. */
  private typingTimer: ReturnType<typeof setTimeout> | undefined;
  private typingSentAt = 0;
  // realtime
  private live: LiveTransport;
  private wsOpen = false;
  private rtToken: string | null = null;
  private rtRoom: string | null = null;
  /** Seconds left before the socket reconnects (0: not counting down). */
  private countdown = 0;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  // elements
  private el!: Record<"launcher" | "win" | "title" | "subtitle" | "status" | "typing" | "users" | "list" | "suggest" | "editbar" | "input" | "send" | "emojiPanel" | "file" | "fileInfo" | "bottom", HTMLElement>;
  private textarea!: HTMLTextAreaElement;

  constructor(opts: { base: string; key: string; page?: boolean; host?: HTMLElement }) {
    this.base = opts.base.replace(/\/+$/, "");
    this.key = opts.key;
    this.page = !!opts.page;
    this.store = `mensageria-widget:${this.key}`;
    try {
      const saved = JSON.parse(localStorage.getItem(this.store) || "null");
      if (saved?.visitor_id && saved?.visitor_token) this.visitor = saved;
      this.sound = localStorage.getItem(SOUND_KEY) !== "off";
    } catch {
      /* no storage: a visitor per page load */
    }
    const host = opts.host ?? document.body.appendChild(h("div", { id: "mensageria-widget" }));
    this.root = host.attachShadow({ mode: "open" });
    this.live = new LiveTransport({
      baseUrl: this.base,
      auth: () => ({ visitor: this.rtToken ?? "" }),
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
      hooks: {
        connecting: () => {
          if (!this.countdown) return;
          this.countdown = 0;
          this.renderStatus();
        },
        opened: () => {
          this.wsOpen = true;
          this.stopPolling();
          this.renderStatus();
          this.markRead();
        },
        frame: (f) => this.frame(f),
        closed: (code) => this.socketClosed(code),
        waiting: (secondsLeft) => {
          this.countdown = secondsLeft;
          this.renderStatus();
        },
      },
    });
  }

  // ---- HTTP

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: RequestInit = { method, headers: { Accept: "application/json", "Accept-Language": this.lang } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      (init.headers as Record<string, string>)["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(`${this.base}/api/widget/${encodeURIComponent(this.key)}${path}`, init);
    const json = await res.json().catch(() => ({}));
    if (!res.ok) throw Object.assign(new Error(json?.error?.message || this.t.sendError), { status: res.status });
    return json as T;
  }

  async start() {
    try {
      this.config = await this.call<Config>("GET", "/config");
      this.configAt = Date.now();
    } catch {
      return; // unknown key: nothing to show
    }
    if (!this.config.enabled) return;
    this.build();
    if (this.visitor) await this.refresh().catch(() => this.forget());
    this.loaded = true;
    if (this.page) this.toggle(true);
    this.render();
    addEventListener("focus", () => this.markRead());
    document.addEventListener("visibilitychange", () => (this.markRead(), this.reloadConfig()));
    setInterval(() => this.reloadConfig(), WIDGET_CONFIG_EVERY_MS);
  }

  /**
   * Agents come and go, opening hours start and end: the config is read again (at most every
   * WIDGET_CONFIG_EVERY_MS) while the panel is open and shown and no agent attends this
   * conversation, so the greeting, offline message and offline form follow without a reload.
   */
  private async reloadConfig() {
    if (!this.open || document.visibilityState !== "visible" || this.room?.status === "OPEN" || Date.now() - this.configAt < WIDGET_CONFIG_EVERY_MS - 500) return;
    this.configAt = Date.now();
    const c = await this.call<Config>("GET", "/config").catch(() => this.config);
    if (JSON.stringify(c) === JSON.stringify(this.config)) return;
    this.config = c;
    this.render();
  }

  private forget() {
    this.visitor = null;
    try {
      localStorage.removeItem(this.store);
    } catch {
      /* ignore */
    }
  }

  private remember(v: { visitor_id: string; visitor_token: string }) {
    this.visitor = { visitor_id: v.visitor_id, visitor_token: v.visitor_token };
    try {
      localStorage.setItem(this.store, JSON.stringify(this.visitor));
    } catch {
      /* ignore */
    }
  }

  /** The visitor's conversation from the server (first load, polling, after a room change). */
  private async refresh() {
    if (!this.visitor) return;
    const q = new URLSearchParams(this.visitor);
    const c = await this.call<Conversation>("GET", `/conversation?${q}`);
    this.room = c.room;
    this.position = c.position;
    this.participants = c.participants ?? [];
    if (!c.room || this.rtRoom !== c.room.id) this.messages.clear();
    for (const m of c.messages) this.add(m);
    // A new room, or no socket and no countdown running (the countdown reconnects by itself).
    if (c.realtime_token && c.room && (this.rtRoom !== c.room.id || this.live.idle)) this.connect(c.realtime_token, c.room.id, c.resume_from);
    else if (c.realtime_token) this.rtToken = c.realtime_token;
    if (c.room?.status === "CLOSED") this.disconnect();
    this.renderUsers();
    this.renderMessages();
    this.renderStatus();
  }

  // ---- realtime

  /** `from`: the server's stream mark taken before the data just shown, so the socket misses nothing written since. */
  private connect(token: string, roomId: string, from?: string | null) {
    if (this.rtRoom !== roomId) this.live.cursor.clear();
    if (from) this.live.cursor.startAt("room", from);
    this.rtToken = token;
    this.rtRoom = roomId;
    this.live.connect();
  }

  /** The socket dropped: poll meanwhile; a refused token is replaced with the conversation, anything else reconnects after the countdown. */
  private socketClosed(code: number): string | null {
    this.wsOpen = false;
    if (!this.rtToken) return null;
    this.startPolling();
    if (TOKEN_REFUSED.includes(code)) {
      this.rtToken = null;
      this.rtRoom = null;
      this.refresh().catch(() => undefined);
      return null;
    }
    return `closed ${code}`;
  }

  private disconnect() {
    this.rtToken = null;
    this.rtRoom = null;
    this.countdown = 0;
    this.wsOpen = false;
    this.live.close();
    this.stopPolling();
  }

  private startPolling() {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => this.refresh().catch(() => undefined), POLL_MS);
  }
  private stopPolling() {
    // Still polled while queued: the place in line has no event of its own.
    if (this.room?.status === "QUEUE" && this.wsOpen) return;
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** A live event of the room (the transport already moved the resume point past it). */
  private frame(frame: LiveFrame) {
    if (frame.type !== "event") return;
    const f = frame as LiveEventFrame;
    const d = (f.data ?? {}) as EventData;
    if (f.event === "typing") {
      if (d.by === "agent") this.showTyping(String(d.name ?? ""));
      return;
    }
    const message = d.message;
    if (message?.author === "agent") this.showTyping(null);
    if (d.room) this.room = { ...(this.room ?? ({} as Room)), ...d.room };
    if (message) this.add(message);
    if ((f.event === "read" || f.event === "delivered") && Array.isArray(d.ids)) {
      for (const id of d.ids) {
        const m = this.messages.get(id);
        if (m) m.status = f.event === "read" ? "READ" : m.status === "READ" ? "READ" : "DELIVERED";
      }
    }
    if (f.event === "send" && message?.user_id && !this.participants.some((p) => p.id === message.user_id)) this.refresh().catch(() => undefined);
    if (["assigned", "transfer_accept", "transfer_department", "return_to_queue", "room_refused", "transfer_refused"].includes(f.event)) this.refresh().catch(() => undefined);
    if (this.room?.status === "QUEUE") this.startPolling();
    else this.stopPolling();
    if (f.event === "close") this.disconnect();
    this.renderMessages();
    this.renderStatus();
    if (f.event === "send") this.markRead();
  }

  /** Keeps a message; an agent's (or bot's) new one counts on the closed launcher and sounds. */
  private add(m: Message) {
    if (this.loaded && !this.messages.has(m.id) && (m.author === "agent" || m.author === "bot")) {
      if (!this.open) this.unread++;
      this.renderLauncher();
      if (this.sound) this.beep();
    }
    this.messages.set(m.id, m);
  }

  /** A short two-note tone, made on the spot (no audio file). */
  private beep() {
    try {
      const a = (this.audio ??= new AudioContext());
      const o = a.createOscillator();
      const g = a.createGain();
      const now = a.currentTime;
      o.frequency.setValueAtTime(880, now);
      o.frequency.setValueAtTime(660, now + 0.12);
      g.gain.setValueAtTime(0.12, now);
      g.gain.exponentialRampToValueAtTime(0.001, now + 0.3);
      o.connect(g).connect(a.destination);
      o.start(now);
      o.stop(now + 0.3);
    } catch {
      /* no WebAudio: silent */
    }
  }

  private toggleSound(btn: HTMLElement) {
    this.sound = !this.sound;
    btn.setAttribute("aria-pressed", String(this.sound));
    try {
      localStorage.setItem(SOUND_KEY, this.sound ? "on" : "off");
    } catch {
      /* ignore */
    }
  }

  /** The launcher: open/close, and the unread badge with its count in the label. */
  private renderLauncher() {
    const l = this.el.launcher;
    if (!l) return;
    const n = this.open ? 0 : this.unread;
    l.setAttribute("aria-expanded", String(this.open));
    l.setAttribute("aria-label", this.open ? this.t.close : n ? fill((this.t as unknown as Record<string, string | undefined>)[`unread_${new Intl.PluralRules(this.lang).select(n)}`] ?? this.t.unread_other, { count: n }) : this.t.open);
    l.replaceChildren(svg(this.open ? CLOSE : CHAT), n ? h("span", { class: "badge", "aria-hidden": "true" }, String(n)) : "");
  }

  /** A command over the socket; a refusal shows the server's message, a lost or unanswered one the generic error. */
  private command<T>(command: string, payload: unknown): Promise<T> {
    return this.live.command(command, payload).then(
      (data) => data as T,
      (e: LiveCommandError) => {
        throw new Error((e.code !== "DISCONNECTED" && e.code !== "TIMEOUT" && e.message) || this.t.sendError);
      },
    );
  }

  /** `read` when the window is open and the page focused, and an agent's message is unread. */
  private markRead() {
    if (!this.open || !document.hasFocus() || document.visibilityState !== "visible" || !this.visitor || !this.room || this.room.status === "CLOSED") return;
    const unread = [...this.messages.values()].some((m) => m.author !== "visitor" && (m.status === "SENT" || m.status === "DELIVERED"));
    if (!unread) return;
    for (const m of this.messages.values()) if (m.author !== "visitor" && m.status !== "DELETED") m.status = "READ";
    (this.wsOpen ? this.command("read", {}) : this.call("POST", "/read", this.visitor)).catch(() => undefined);
  }

  // ---- actions

  /** Sends the input (text, file or both). The input is cleared only when the send succeeded. */
  async submit() {
    const text = this.textarea.value;
    if (this.editing) return this.saveEdit();
    if (!text.trim() && !this.file) return;
    this.error = "";
    this.el.send.setAttribute("disabled", "");
    try {
      await this.sendMessage(text, this.file);
      this.textarea.value = "";
      this.file = null;
      this.renderFile();
    } catch (e) {
      this.error = (e as Error).message || this.t.sendError;
    } finally {
      this.el.send.removeAttribute("disabled");
      this.renderStatus();
    }
  }

  private async sendMessage(text: string, file: File | null, extra: Record<string, string> = {}) {
    const client_id = clientId();
    if (this.wsOpen && this.room && this.room.status !== "CLOSED" && !file) {
      const m = await this.command<Message>("send", { message: text, client_id });
      this.accept(this.room, m, this.position);
      return;
    }
    // A text or a file: the first one starts the conversation (and gives this visitor an id), later ones continue it.
    const fields: Record<string, string> = { ...(this.visitor ?? {}), ...(this.departmentId ? { department_id: this.departmentId } : {}), ...extra, message: text, client_id };
    let body: FormData | Record<string, string> = fields;
    if (file) {
      body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.set(k, v);
      body.set("file", file);
    }
    const r = await this.call<{ visitor_id: string; visitor_token: string; room: Room; message: Message; position: number | null; realtime_token: string; resume_from?: string }>("POST", file ? "/upload" : "/messages", body);
    this.remember(r);
    this.accept(r.room, r.message, r.position);
    if (r.room.status !== "CLOSED" && r.realtime_token && this.rtRoom !== r.room.id) this.connect(r.realtime_token, r.room.id, r.resume_from);
    if (r.room.status === "QUEUE") this.startPolling();
  }

  private accept(room: Room, message: Message, position: number | null) {
    if (this.room?.id !== room.id) this.messages.clear();
    this.room = { ...(this.room ?? {}), ...room };
    this.position = position;
    this.messages.set(message.id, message);
    this.renderMessages(true);
  }

  private startEdit(m: Message) {
    this.editing = m;
    this.textarea.value = m.body;
    this.textarea.focus();
    this.renderMessages();
    this.renderEdit();
  }

  private cancelEdit() {
    if (!this.editing) return;
    this.editing = null;
    this.textarea.value = "";
    this.renderMessages();
    this.renderEdit();
  }

  private async saveEdit() {
    const m = this.editing!;
    const text = this.textarea.value;
    if (!text.trim() || !this.visitor) return; // editing only with text
    try {
      // Over the live socket when it is open, otherwise over HTTP (the same use-case).
      const updated = this.wsOpen ? await this.command<Message>("edit", { id: m.id, message: text }) : await this.call<Message>("PUT", `/messages/${m.id}`, { ...this.visitor, message: text });
      this.messages.set(updated.id, updated);
      this.editing = null;
      this.textarea.value = "";
      this.error = "";
    } catch (e) {
      this.error = (e as Error).message;
    }
    this.renderMessages();
    this.renderEdit();
    this.renderStatus();
  }

  private async remove(m: Message) {
    if (!this.visitor) return;
    try {
      const updated = this.wsOpen ? await this.command<Message>("delete", { id: m.id }) : await this.call<Message>("DELETE", `/messages/${m.id}`, this.visitor);
      this.messages.set(updated.id, updated);
      if (this.editing?.id === m.id) this.cancelEdit();
    } catch (e) {
      this.error = (e as Error).message;
    }
    this.renderMessages();
    this.renderStatus();
  }

  private async sendOffline(form: HTMLFormElement) {
    const data = new FormData(form);
    const name = String(data.get("name") ?? "").trim();
    const contact = String(data.get("contact") ?? "").trim();
    const message = String(data.get("message") ?? "").trim();
    if (!name || !contact || !message) {
      this.error = this.t.offline.required;
      return this.renderStatus();
    }
    const digits = contact.replace(/\D/g, "");
    const extra: Record<string, string> = { name };
    if (contact.includes("@")) extra.email = contact;
    else extra.phone = digits.length === 10 || digits.length === 11 ? `+55${digits}` : `+${digits}`;
    try {
      await this.sendMessage(message, null, extra);
      this.offlineSent = true;
      this.error = "";
    } catch (e) {
      this.error = (e as Error).message;
    }
    this.render();
  }

  toggle(open = !this.open) {
    this.open = this.page || open;
    this.el.win.hidden = !this.open;
    if (this.open) this.unread = 0;
    this.renderLauncher();
    if (this.open) {
      this.scrollToEnd();
      this.textarea.focus();
      this.markRead();
      this.reloadConfig();
    }
  }

  // ---- view

  private build() {
    const vars = [...Object.entries(this.config.colors).flatMap(([part, v]) => [[`--${part}-bg`, v.bg], [`--${part}-text`, v.text]]), ["--highlight", this.config.highlight_color]];
    // A constructed sheet: no <style> element, so a host CSP without 'unsafe-inline' styles allows it.
    const root = this.root as ShadowRoot & { adoptedStyleSheets?: CSSStyleSheet[] };
    let style: HTMLLinkElement | string = "";
    try {
      if (!root.adoptedStyleSheets) throw 0;
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(`:host{${vars.map(([k, v]) => `${k}:${v}`).join(";")}}${CSS}`);
      root.adoptedStyleSheets = [sheet];
    } catch {
      // No constructable stylesheets (Safari < 16.4): the same CSS as a file of ours (style-src APP),
      // the colors set on the host through CSSOM, which a CSP allows.
      style = h("link", { rel: "stylesheet", href: `${this.base}/widget.css?v=${WIDGET_CSS_V}` });
      for (const [k, v] of vars) (this.root.host as HTMLElement).style.setProperty(k, v);
    }
    const launcher = h("button", { class: `launcher ${this.config.position}`, type: "button", "aria-expanded": "false", "aria-label": this.t.open, onclick: () => this.toggle() }, svg(CHAT));
    const title = h("button", { class: "title", type: "button", "aria-controls": "users", onclick: () => ((this.showUsers = !this.showUsers), this.renderUsers()) });
    const subtitle = h("span", { class: "subtitle" });
    const closeBtn = this.page ? null : h("button", { class: "x", type: "button", "aria-label": this.t.close, onclick: () => this.toggle(false) }, svg(CLOSE));
    const soundBtn: HTMLElement = h("button", { class: "x snd", type: "button", "aria-label": this.t.sound, title: this.t.sound, "aria-pressed": String(this.sound), onclick: () => this.toggleSound(soundBtn) }, svg(BELL));
    const header = h("header", {}, h("div", { class: "titles" }, title, subtitle), soundBtn, closeBtn);
    const users = h("ul", { class: "users", id: "users", hidden: true });
    const list = h("div", { class: "list", role: "log", "aria-live": "polite" });
    const status = h("div", { class: "status", role: "status" });
    const typing = h("div", { class: "typing", "aria-live": "polite", hidden: true });
    const suggest = h("div", { class: "suggest" });
    const editbar = h("div", { class: "editbar", hidden: true });
    const textarea = h("textarea", { rows: 1, placeholder: this.t.placeholder, "aria-label": this.t.placeholder });
    textarea.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
        ev.preventDefault();
        this.submit();
      } else if (ev.key === "Escape" && this.editing) {
        ev.preventDefault();
        this.cancelEdit();
      }
    });
    textarea.addEventListener("input", () => this.signalTyping());
    this.textarea = textarea;
    const emojiPanel = h("div", { class: "emojis", hidden: true });
    const fileInput = h("input", { type: "file", hidden: true, onchange: () => ((this.file = fileInput.files?.[0] ?? null), (fileInput.value = ""), this.renderFile()) }) as HTMLInputElement;
    const fileInfo = h("div", { class: "fileinfo", hidden: true });
    const emojiBtn = this.config.emoji
      ? h("button", { class: "icon", type: "button", "aria-label": this.t.emoji, title: this.t.emoji, onclick: () => (emojiPanel.hidden = !emojiPanel.hidden) }, "😊")
      : null;
    const attachBtn = this.config.attachments
      ? h("button", { class: "icon attach", type: "button", "aria-label": this.t.attach, title: this.t.attach, onclick: () => fileInput.click() }, svg(CLIP))
      : null;
    const send = h("button", { class: "send", type: "button", onclick: () => this.submit() }, this.t.send);
    const input = h("div", { class: "input" }, emojiBtn, attachBtn, fileInput, textarea, send);
    const bottom = h("div", { class: "bottom" }, emojiPanel, fileInfo, editbar, input);
    const win = h("section", { class: `win ${this.page ? "page" : this.config.position}`, hidden: true, "aria-label": this.config.title_online }, header, users, list, typing, status, suggest, bottom);
    this.root.append(style, this.page ? "" : launcher, win);
    this.el = { launcher, win, title, subtitle, status, typing, users, list, suggest, editbar, input, send, emojiPanel, file: fileInput, fileInfo, bottom };
    this.buildEmoji();
  }

  private buildEmoji() {
    const panel = this.el.emojiPanel;
    const grid = h("div", { class: "grid" });
    const show = (i: number) => {
      grid.replaceChildren(
        ...EMOJI[i][1].split(" ").map((e) =>
          h("button", { type: "button", onclick: () => {
            const ta = this.textarea;
            const at = ta.selectionStart ?? ta.value.length;
            ta.value = ta.value.slice(0, at) + e + ta.value.slice(ta.selectionEnd ?? at);
            ta.focus();
            ta.selectionStart = ta.selectionEnd = at + e.length;
          } }, e),
        ),
      );
      tabs.querySelectorAll("button").forEach((b, j) => b.setAttribute("aria-selected", String(i === j)));
    };
    const tabs = h("div", { class: "tabs", role: "tablist" }, ...EMOJI.map(([k, list], i) => h("button", { type: "button", role: "tab", title: this.t.cats[k], "aria-label": this.t.cats[k], onclick: () => show(i) }, list.split(" ")[0])));
    panel.append(tabs, grid);
    show(0);
  }

  private render() {
    const offline = !this.config.open && (!this.room || this.room.status === "CLOSED");
    this.el.title.textContent = this.config.open ? this.config.title_online : this.config.title_offline;
    this.el.win.setAttribute("aria-label", this.el.title.textContent);
    this.el.list.hidden = false;
    const form = this.root.querySelector("form.offline");
    form?.remove();
    this.el.bottom.hidden = offline;
    if (offline) {
      const f = this.offlineSent
        ? h("div", { class: "offline" }, h("p", {}, this.t.offline.sent))
        : h(
            "form",
            { class: "offline", onsubmit: (ev: Event) => (ev.preventDefault(), this.sendOffline(ev.target as HTMLFormElement)) },
            h("p", {}, this.config.offline_message || this.t.offline.intro),
            h("label", {}, this.t.offline.name, h("input", { name: "name", required: true, autocomplete: "name" })),
            h("label", {}, this.t.offline.contact, h("input", { name: "contact", required: true, autocomplete: "email" })),
            h("label", {}, this.t.offline.message, h("textarea", { name: "message", required: true, rows: 4 })),
            h("button", { type: "submit", class: "send" }, this.t.offline.send),
          );
      this.el.list.hidden = true;
      this.el.list.after(f);
    }
    this.renderUsers();
    this.renderMessages(true);
    this.renderStatus();
    this.renderDepartments();
  }

  private renderDepartments() {
    const old = this.root.querySelector(".dept");
    old?.remove();
    const open = this.config.departments.filter((d) => d.open);
    if (open.length < 2 || (this.room && this.room.status !== "CLOSED")) return;
    const select = h("select", { "aria-label": this.t.department, onchange: () => (this.departmentId = select.value) }, h("option", { value: "" }, this.t.department), ...open.map((d) => h("option", { value: d.id }, d.name)));
    select.value = this.departmentId;
    this.el.input.before(h("label", { class: "dept" }, select));
  }

  /** The header's people line and user list: 'You', 'You & name', 'You, name & others'. */
  private renderUsers() {
    const p = this.participants;
    this.el.subtitle.textContent = p.length === 0 ? this.t.you : p.length === 1 ? fill(this.t.youAnd, { name: p[0].name }) : fill(this.t.youOthers, { name: p[0].name });
    this.el.title.setAttribute("aria-expanded", String(this.showUsers));
    this.el.users.hidden = !this.showUsers;
    this.el.users.replaceChildren(
      h("li", { class: "head" }, this.t.participants),
      h("li", {}, this.t.you),
      ...(p.length ? p.map((x) => h("li", {}, x.name)) : [h("li", { class: "muted" }, this.t.noParticipants)]),
    );
  }

  /** Tells the agent this visitor is typing: over the socket only, at most every 2.5 s, never while editing. */
  private signalTyping() {
    if (!this.wsOpen || !this.room || this.room.status === "CLOSED" || this.editing || !this.textarea.value.trim()) return;
    if (Date.now() - this.typingSentAt < TYPING_EVERY_MS) return;
    this.typingSentAt = Date.now();
    this.command("typing", {}).catch(() => undefined);
  }

  /** The agent types (a name), or stopped (null: their message arrived). Shown for 6 s at most. */
  private showTyping(name: string | null) {
    clearTimeout(this.typingTimer);
    if (name !== null) this.typingTimer = setTimeout(() => this.showTyping(null), TYPING_SHOW_MS);
    const el = this.el.typing;
    el.hidden = name === null;
    el.textContent = name === null ? "" : name ? fill(this.t.typing, { name }) : this.t.typingAnon;
  }

  private renderStatus() {
    const t = this.t;
    let s = "";
    if (this.countdown > 0) s = fill(t.reconnecting, { seconds: this.countdown });
    else if (this.room?.status === "QUEUE") s = this.position ? fill(t.queue, { position: this.position }) : t.waiting;
    else if (this.room?.status === "CLOSED" && this.config.open && this.messages.size) s = t.closed;
    this.el.status.textContent = this.error || s;
    this.el.status.className = `status${this.error ? " error" : ""}`;
    this.el.status.hidden = !(this.error || s);
    if (this.room?.status === "CLOSED" && !this.config.open && !this.el.bottom.hidden) this.render();
  }

  private renderFile() {
    const info = this.el.fileInfo;
    info.hidden = !this.file;
    info.replaceChildren(...(this.file ? [h("span", {}, this.file.name), h("button", { type: "button", class: "link", onclick: () => ((this.file = null), this.renderFile()) }, this.t.removeFile)] : []));
  }

  private renderEdit() {
    const bar = this.el.editbar;
    bar.hidden = !this.editing;
    bar.replaceChildren(
      ...(this.editing
        ? [
            h("span", {}, this.t.editing),
            h("button", { type: "button", class: "link", onclick: () => this.cancelEdit() }, this.t.cancel),
            h("button", { type: "button", class: "link", onclick: () => this.saveEdit() }, this.t.ok),
          ]
        : []),
    );
  }

  private scrollToEnd() {
    const l = this.el.list;
    l.scrollTop = l.scrollHeight;
  }

  /** Re-renders the thread; follows the end only when the reader is within 600 px of it (or `force`). */
  private renderMessages(force = false) {
    const l = this.el.list;
    const near = force || l.scrollHeight - l.scrollTop - l.clientHeight <= AUTO_SCROLL_PX;
    const items: HTMLElement[] = [];
    const c = this.config;
    if (c.welcome) items.push(h("div", { class: "msg them greet" }, h("div", { class: "bubble" }, c.welcome)));
    // Open hours but nobody connected, and no agent on this conversation yet: the offline message.
    if (c.open && !c.agents_online && c.offline_message && this.room?.status !== "OPEN") items.push(h("div", { class: "msg system off" }, h("div", { class: "bubble" }, c.offline_message)));
    const sorted = [...this.messages.values()].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
    // Edit/Delete: the visitor's messages after the other side's (agent's or bot's) last one.
    let lastOther = -1;
    sorted.forEach((m, i) => (m.author === "agent" || m.author === "bot") && (lastOther = i));
    sorted.forEach((m, i) => items.push(this.messageEl(m, i > lastOther, m.author === "agent" && (sorted[i - 1]?.author !== "agent" || sorted[i - 1].user_id !== m.user_id))));
    l.replaceChildren(...items);
    const last = sorted[sorted.length - 1];
    this.el.suggest.replaceChildren(
      ...(last && last.author !== "visitor" && last.suggestions?.length
        ? last.suggestions.map((s) => h("button", { type: "button", class: "chip", onclick: () => this.sendMessage(s, null).catch((e) => ((this.error = e.message), this.renderStatus())) }, s))
        : []),
    );
    this.renderFile();
    this.renderDepartments();
    if (near) this.scrollToEnd();
  }

  /** `editable`: one of the visitor's last messages; `who`: an agent's first message in a row, under their name and avatar. */
  private messageEl(m: Message, editable: boolean, who: boolean): HTMLElement {
    const mine = m.author === "visitor";
    const deleted = m.status === "DELETED";
    const bubble = h("div", { class: "bubble" });
    if (deleted) bubble.append(h("em", { class: "deleted" }, this.t.deleted));
    else {
      if (m.body) {
        const text = h("div", { class: "text" });
        text.innerHTML = renderMarkup(m.body); // escaped, then markup (remix/app/lib/markup.ts, shared with the agents)
        bubble.append(text);
      }
      for (const a of m.attachments ?? []) bubble.append(this.attachmentEl(a));
      if (m.edited) bubble.append(h("span", { class: "edited" }, ` (${this.t.edited})`));
    }
    // HH:mm on the visitor's own clock.
    bubble.append(h("time", { class: "at", datetime: m.created_at }, new Date(m.created_at).toTimeString().slice(0, 5)));
    const out = h("div", { class: `msg ${mine ? "me" : m.author === "agent" || m.author === "bot" ? "them" : "system"}`, "data-id": m.id }, bubble);
    if (who) {
      const name = this.participants.find((p) => p.id === m.user_id)?.name || this.t.agent;
      const av = h("span", { class: "av", "aria-hidden": "true" }, name.split(/\s+/).map((w) => w[0]).join("").slice(0, 2).toUpperCase());
      // A color per agent; set through CSSOM, which a host CSP allows (a style attribute it may not).
      av.style.background = `hsl(${[...(m.user_id ?? "")].reduce((a, ch) => (a * 31 + ch.charCodeAt(0)) % 360, 7)} 45% 40%)`;
      out.prepend(h("div", { class: "who" }, av, h("span", { class: "name" }, name)));
    }
    if (mine && editable && m.id && !deleted) {
      out.append(
        h(
          "div",
          { class: "tools" },
          m.body ? h("button", { type: "button", class: "link", disabled: this.editing?.id === m.id, onclick: () => this.startEdit(m) }, this.t.edit) : null,
          h("button", { type: "button", class: "link", onclick: () => this.remove(m) }, this.t.delete),
        ),
      );
    }
    return out;
  }

  private attachmentEl(a: Attachment): HTMLElement {
    let url = a.uri.startsWith("/") ? this.base + a.uri : a.uri;
    if (this.visitor) url += (url.includes("?") ? "&" : "?") + new URLSearchParams({ key: this.key, ...this.visitor });
    if (a.type === "image" || a.type === "sticker") return h("a", { href: url, target: "_blank", rel: "noopener" }, h("img", { src: url, alt: a.name, class: "img" }));
    if (a.type === "audio") return h("audio", { src: url, controls: true });
    if (a.type === "video") return h("video", { src: url, controls: true, class: "img" });
    return h("a", { href: url, target: "_blank", rel: "noopener", class: "file" }, `📄 ${a.name}`);
  }
}

// One widget per page, except inside a given element (data-target: the hosted page, the simulator).
const w = window as unknown as { __mensageriaWidget?: boolean };
if (script?.dataset.key && (script.dataset.target || !w.__mensageriaWidget)) {
  if (!script.dataset.target) w.__mensageriaWidget = true;
  const boot = () => {
    const hostId = script.dataset.target;
    const host = hostId ? document.getElementById(hostId) ?? undefined : undefined;
    if (hostId && (!host || host.shadowRoot)) return;
    new Widget({ base: script.dataset.base || new URL(script.src, location.href).origin, key: script.dataset.key!, page: script.dataset.mode === "page", host }).start();
  };
  if (document.body) boot();
  else addEventListener("DOMContentLoaded", boot);
}
