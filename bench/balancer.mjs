/**
 * A TCP load balancer on loopback for runs with several processes of a kind (`CHAOS_INSTANCES`):
 * each new connection goes to the next backend in turn (round robin); a backend that refuses the
 * connection (killed, restarting) is skipped for that connection and the next one tried, as
 * HAProxy's `option redispatch` or a cloud balancer's passive health check do. HTTP, keep-alive
 * and websockets pass through untouched (one client connection = one backend connection), so the
 * processes behind it see loopback sockets: TRUSTED_PROXIES' default, like our own web.
 */
import { connect, createServer } from "node:net";

/** Listens on 127.0.0.1:`port` in front of `backends` (ports on 127.0.0.1). */
export function startBalancer(port, backends) {
  let next = 0;
  const open = new Set();
  const server = createServer((client) => {
    open.add(client);
    client.on("close", () => open.delete(client));
    client.on("error", () => undefined);
    client.pause();
    const start = next++ % backends.length;
    const attempt = (tried) => {
      if (tried >= backends.length || client.destroyed) return client.destroy();
      const upstream = connect(backends[(start + tried) % backends.length], "127.0.0.1");
      let connected = false;
      upstream.once("connect", () => {
        connected = true;
        open.add(upstream);
        upstream.on("close", () => {
          open.delete(upstream);
          client.destroy();
        });
        client.on("close", () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      upstream.on("error", () => {
        if (!connected) attempt(tried + 1);
        else client.destroy();
      });
    };
    attempt(0);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () =>
      resolve({
        port,
        close: () =>
          new Promise((r) => {
            for (const s of open) s.destroy();
            server.close(() => r());
          }),
      }),
    );
  });
}
