// The /health handler of the web process, on Node's http module (for comparison only).
import http from "node:http";
const port = Number(process.env.PORT);
http
  .createServer((req, res) => {
    if (req.url === "/health") {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end("OK");
    } else {
      res.writeHead(404);
      res.end();
    }
  })
  .listen(port, "127.0.0.1", () => console.log(`node health on ${port}`));
