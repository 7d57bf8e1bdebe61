import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { key, redis } from "../lib/redis";

/** Failed sign-ins are counted per e-mail and per IP in Redis over a sliding window. */
function keys(email: string, ip: string | null | undefined) {
  return { byEmail: key("ratelimit", "login", "email", email.toLowerCase()), byIp: key("ratelimit", "login", "ip", ip ?? "unknown") };
}

export async function assertLoginAllowed(email: string, ip: string | null | undefined) {
  const e = env();
  const { byEmail, byIp } = keys(email, ip);
  const [a, b] = await redis().mget(byEmail, byIp);
  if (Number(a ?? 0) >= e.LOGIN_MAX_FAILS_PER_EMAIL || Number(b ?? 0) >= e.LOGIN_MAX_FAILS_PER_IP) {
    const ttl = Math.max(await redis().ttl(byEmail), await redis().ttl(byIp), 1);
    throw new AppError("TOO_MANY_ATTEMPTS", { params: { minutes: Math.ceil(ttl / 60) } });
  }
}

export async function recordLoginFailure(email: string, ip: string | null | undefined) {
  const window = env().LOGIN_FAIL_WINDOW_SECONDS;
  const { byEmail, byIp } = keys(email, ip);
  await redis().multi().incr(byEmail).expire(byEmail, window, "NX").incr(byIp).expire(byIp, window, "NX").exec();
}

export async function clearLoginFailures(email: string) {
  await redis().del(keys(email, null).byEmail);
}
