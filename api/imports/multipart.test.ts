import { describe, expect, it } from "vitest";
import { boundaryOf, MultipartReader } from "./multipart";

/** A multipart body as a browser sends it, cut into random pieces (a boundary may straddle two). */
async function body(form: FormData, maxPiece: number) {
  const req = new Request("http://localhost/", { method: "POST", body: form });
  const raw = new Uint8Array(await req.arrayBuffer());
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (i >= raw.length) return c.close();
      const n = 1 + Math.floor(Math.random() * maxPiece);
      c.enqueue(raw.slice(i, i + n));
      i += n;
    },
  });
  return { stream, boundary: boundaryOf(req.headers.get("Content-Type"))! };
}

describe("streaming multipart reader", () => {
  it("hands out each file part in order, whatever the chunking, skipping plain fields", async () => {
    const big = "x".repeat(150_000) + "\r\n--not-the-boundary\r\n" + "y".repeat(999);
    const form = new FormData();
    form.append("csrf", "token");
    form.append("files", new Blob([big]), "a.csv");
    form.append("files", new Blob(["Celular\r\n11987650001\r\n"]), 'lista "nova".csv');
    form.append("files", new Blob([""]), "vazio.csv");
    for (const piece of [1, 13, 4096, 1 << 20]) {
      const { stream, boundary } = await body(form, piece);
      const got: Array<[string, string, number]> = [];
      for await (const f of new MultipartReader(stream, boundary).files()) got.push([f.field, f.name, (await new Response(f.stream).text()).length]);
      expect(got, `pieces up to ${piece} bytes`).toEqual([
        ["files", "a.csv", big.length],
        ["files", 'lista "nova".csv', 22],
        ["files", "vazio.csv", 0],
      ]);
    }
  });

  it("skips a part its consumer did not read, and refuses a body that is not multipart", async () => {
    const form = new FormData();
    form.append("files", new Blob(["a".repeat(100_000)]), "1.csv");
    form.append("files", new Blob(["b"]), "2.csv");
    const { stream, boundary } = await body(form, 5000);
    const names: string[] = [];
    for await (const f of new MultipartReader(stream, boundary).files()) names.push(f.name);
    expect(names).toEqual(["1.csv", "2.csv"]);
    expect(boundaryOf("application/json")).toBeNull();
    const junk = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new TextEncoder().encode("not multipart at all")), c.close()) });
    await expect(async () => {
      for await (const _ of new MultipartReader(junk, "xyz").files());
    }).rejects.toMatchObject({ code: "VALIDATION" });
  });
});
