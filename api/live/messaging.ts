/**
 * The registry of live chat transports (ADR 017): the room's channel picks its LiveMessaging
 * (none for the webchat: its widget is ours). The connectable channels' adapters live in
 * ./adapters; WhatsApp's in api/whatsapp/live.ts and RCS's in api/rcs/live.ts (their rooms go out
 * as messages of the pipeline, through the account's WhatsApp numbers or RCS agents, not a live
 * channel connection). The outbound worker and the signals ask only this.
 */
import { rcsLive } from "../rcs/live";
import { whatsappLive } from "../whatsapp/live";
import { CONNECTABLE_ADAPTERS, type LiveConnection, type LiveMessaging } from "./adapters";
import { connectionOf } from "./channel-connections";
import type { LiveChannel } from "./rooms/types";

let registry: Partial<Record<LiveChannel, LiveMessaging>> | null = null;

/** The room's channel's transport, or undefined (the webchat). Built on first use: the modules it joins import the room flow, which asks it. */
export function liveAdapter(channel: string): LiveMessaging | undefined {
  registry ??= { ...CONNECTABLE_ADAPTERS, whatsapp: whatsappLive, rcs: rcsLive };
  return registry[channel as LiveChannel];
}

/** The connection a room goes out through: the adapter's own choice, else the account's connection of the channel. */
export async function roomConnection(adapter: LiveMessaging, accountId: string, channel: string, roomExternalId: string): Promise<LiveConnection | null> {
  return adapter.connectionFor ? adapter.connectionFor(accountId, roomExternalId) : connectionOf(accountId, channel);
}
