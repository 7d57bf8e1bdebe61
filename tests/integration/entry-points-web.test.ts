/**
 * The spec's live-chat configuration entry points (issue 23): /chat/webchat, /chat/configs and
 * /configs/tabulations lead a person who may open them to the one real screen (302), and a person
 * who may not (or whose plan lacks live chat) to /403, as the policy decides for the spec's route itself.
 */
import { describe, expect, it } from "vitest";
import { giveOmni } from "../support/factories";
import { location, signedInCustomer } from "../support/web";

describe("live-chat configuration entry points", () => {
  it("lead the owner to the webchat widget's, the system's and the tabulations' screens, which open", async () => {
    const owner = await signedInCustomer("entrypoints");
    // Live chat's screens are the omni plan's (the policy sends an account without it to /403).
    await giveOmni(owner.accountId);
    for (const [from, to] of [
      ["/chat/webchat", "/widget/config"],
      ["/chat/configs", "/live/configs/system"],
      ["/configs/tabulations", "/tabulations"],
    ]) {
      const res = await owner.client.get(from);
      expect(res.status, from).toBe(302);
      expect(location(res), from).toBe(to);
      expect([200, 302], to).toContain((await owner.client.get(to)).status);
    }
  });

  it("send a person the spec refuses to /403 (a developer may not open /chat/webchat)", async () => {
    const developer = await signedInCustomer("entrypointsdev", { role: "developer" });
    const res = await developer.client.get("/chat/webchat");
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/403");
  });
});
