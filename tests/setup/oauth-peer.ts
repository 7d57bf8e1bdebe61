/**
 * A loopback OAuth 2.0 authorization server that speaks the protocol our Google strategy uses:
 * /authorize (auto-consents and redirects back with a code), /token (authorization_code grant,
 * client secret and PKCE S256 checked) and /userinfo (OpenID claims for the bearer token).
 * The person who "consents" is chosen with the extra query parameter `as=<email>`.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";

export const OAUTH_CLIENT = { id: "test-google-client", secret: "test-google-secret" };

type Grant = { email: string; redirectUri: string; challenge: string | null; clientId: string };

export function startOAuthPeer(port: number) {
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, string>();
  const b64url = (b: Buffer) => b.toString("base64url");

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && url.pathname === "/authorize") {
      const q = url.searchParams;
      if (q.get("response_type") !== "code" || q.get("client_id") !== OAUTH_CLIENT.id || !q.get("redirect_uri") || !q.get("as")) return json(400, { error: "invalid_request" });
      const code = b64url(randomBytes(12));
      codes.set(code, { email: q.get("as")!, redirectUri: q.get("redirect_uri")!, challenge: q.get("code_challenge"), clientId: q.get("client_id")! });
      const back = new URL(q.get("redirect_uri")!);
      back.searchParams.set("code", code);
      if (q.get("state")) back.searchParams.set("state", q.get("state")!);
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }
    if (req.method === "POST" && url.pathname === "/token") {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const form = new URLSearchParams(raw);
      const basic = (req.headers.authorization ?? "").replace(/^Basic\s+/, "");
      const [id, secret] = basic ? Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent) : [form.get("client_id"), form.get("client_secret")];
      if (id !== OAUTH_CLIENT.id || secret !== OAUTH_CLIENT.secret) return json(401, { error: "invalid_client" });
      const grant = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      if (form.get("grant_type") !== "authorization_code" || !grant || grant.redirectUri !== form.get("redirect_uri")) return json(400, { error: "invalid_grant" });
      if (
        grant.challenge &&
        b64url(
          createHash("sha256")
            .update(form.get("code_verifier") ?? "")
            .digest(),
        ) !== grant.challenge
      )
        return json(400, { error: "invalid_grant" });
      const token = b64url(randomBytes(18));
      tokens.set(token, grant.email);
      return json(200, { access_token: token, token_type: "Bearer", expires_in: 3600, scope: "openid email profile" });
    }
    if (req.method === "GET" && url.pathname === "/userinfo") {
      const email = tokens.get((req.headers.authorization ?? "").replace(/^Bearer\s+/, ""));
      if (!email) return json(401, { error: "invalid_token" });
      const local = email.split("@")[0];
      return json(200, { sub: `g-${createHash("sha1").update(email).digest("hex").slice(0, 16)}`, email, email_verified: true, given_name: "Gabi", family_name: local });
    }
    json(404, { error: "not_found" });
  });
  return new Promise<{ close: () => Promise<void> }>((resolve) => server.listen(port, "127.0.0.1", () => resolve({ close: () => new Promise((r) => server.close(() => r())) })));
}
