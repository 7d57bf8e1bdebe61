/**
 * Where live commands meet their use-cases (api/live/commands.ts holds the table). The realtime
 * process imports this file once at boot. heart_beat is built in; the room use-cases
 * (api/live/rooms.ts) register here, e.g.:
 *
 *   registerLiveCommand("close", (caller, payload) => closeRoom(agentCtx(caller), payload));
 *   registerLiveCommand("send", (caller, payload) => sendLiveMessage(caller, payload), { audience: "both" });
 *
 * A command without a registration answers COMMAND_UNAVAILABLE.
 */
import "./commands";
