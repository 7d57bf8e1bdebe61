import { describe, expect, it } from "vitest";
import { isAppError } from "../../lib/errors";
import { assertMove, attendingAgent, MOVES, roomNotice, type Move } from "./transition";
import type { Room, RoomStatus } from "./types";

const STATUSES: RoomStatus[] = ["QUEUE", "OPEN", "CLOSED", "BOT"];
const room = (status: RoomStatus, agent_id: string | null = null) => ({ id: "r1", account_id: "a1", status, agent_id }) as Room;

/** The error code assertMove throws for `status`, or null when the move is allowed. */
function refusal(move: Move, status: RoomStatus): string | null {
  try {
    assertMove(room(status), move);
    return null;
  } catch (e) {
    return isAppError(e) ? e.code : String(e);
  }
}

describe("room status moves (spec section 4)", () => {
  it("each move leaves only from its statuses; any other is LIVE_ROOM_STATE", () => {
    const table = Object.fromEntries((Object.keys(MOVES) as Move[]).map((m) => [m, STATUSES.filter((s) => refusal(m, s) === null)]));
    expect(table).toEqual({
      assign: ["QUEUE"],
      requeue: ["OPEN"],
      close: ["QUEUE", "OPEN"],
      reopen: ["CLOSED"],
      bot: ["QUEUE", "OPEN"],
      handoff: ["BOT"],
      botClose: ["BOT"],
    });
    // Nobody takes or closes a room the bot attends: only its flow moves it.
    expect(refusal("assign", "BOT")).toBe("LIVE_ROOM_STATE");
    expect(refusal("close", "BOT")).toBe("LIVE_ROOM_STATE");
    expect(refusal("assign", "OPEN")).toBe("LIVE_ROOM_STATE");
  });

  it("a notice carries the room's summary and the extra fields; the attending agent, else everyone, hears a change only they act on", () => {
    const n = roomNotice(room("OPEN", "u1"), { event: "room_updated", to: attendingAgent(room("OPEN", "u1")), extra: { by: "agent" } });
    expect(n).toMatchObject({ accountId: "a1", roomId: "r1", event: "room_updated", to: ["u1"], visitor: false, data: { by: "agent", room: { id: "r1", status: "OPEN" } } });
    expect(attendingAgent(room("QUEUE"))).toBe("*");
  });
});
