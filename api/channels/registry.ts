/**
 * Channel adapters keyed by channel + provider. The dispatcher asks the registry, never
 * `if (channel === "sms")`. Without credentials for a real provider, a channel's default is the
 * built-in simulator. SMS messages go through their route's provider connection instead
 * (./provider-connections, ADR 011: one adapter module per kind — simulator, smpp, http); this registry
 * remains the default for channels without connections.
 */
import type { ChannelAdapter } from "./contract";
import { simulatorAdapter } from "./simulator";
import { whatsappCloudAdapter } from "./whatsapp/adapter";
import { whatsappOnpremAdapter } from "./whatsapp/onprem-adapter";
import { emailSmtpAdapter } from "./email/adapter";
import { rbmAdapter } from "./rcs/rbm";

/** WhatsApp: a message names its number's provider (whatsappProvider), so the Cloud adapter's being first only makes it the channel's default. */
const ADAPTERS: ChannelAdapter[] = [simulatorAdapter("sms"), whatsappCloudAdapter, whatsappOnpremAdapter, emailSmtpAdapter, rbmAdapter];

export const SIMULATOR_PROVIDER = "simulator";

const byKey = new Map(ADAPTERS.map((a) => [`${a.channel}/${a.provider}`, a]));

export function adapterFor(channel: string, provider: string): ChannelAdapter | undefined {
  return byKey.get(`${channel}/${provider}`);
}

/** The provider a new message of `channel` goes to: the first configured real provider, else the simulator. */
export function defaultProvider(channel: string): string | undefined {
  const candidates = ADAPTERS.filter((a) => a.channel === channel && a.configured());
  return (candidates.find((a) => a.provider !== SIMULATOR_PROVIDER) ?? candidates[0])?.provider;
}

/** Channels that have at least one provider: the dispatcher consumes one stream per channel. */
export function channels(): string[] {
  return [...new Set(ADAPTERS.map((a) => a.channel))];
}

/** The stream a channel's messages are dispatched from (without the Redis prefix). */
export const dispatchStream = (channel: string) => `messages:${channel}`;
