/**
 * Multipart uploads streamed straight through: each file part of the request body is handed to
 * the use-case as a web ReadableStream while it arrives, so no file is ever held in memory or
 * copied to a temporary file first.
 *
 * Remix's parser gives the parts one at a time and needs each consumed before it reads the next,
 * while the use-case pulls files from an async iterable: the upload handler passes a part on,
 * waits until the use-case has read it to the end (or stopped), drops whatever was left unread,
 * and only then lets the parser go on. Text fields (the CSRF token, sent before the files) are
 * kept, capped; files are passed on only once `acceptFiles` agrees, otherwise read and dropped.
 */
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";

export type IncomingFile = { name: string; stream: ReadableStream<Uint8Array> };

export type Outcome<R> = { status: "none" } | { status: "ok"; value: R } | { status: "error"; error: unknown };

/** A text field larger than this is cut (forms here carry a token and a few words). */
const MAX_TEXT_BYTES = 64 * 1024;

type Next = () => Promise<IteratorResult<Uint8Array>>;

/** The parser's part iterator does not queue concurrent reads: this does. */
function serial(data: AsyncIterable<Uint8Array>): Next {
  const it = data[Symbol.asyncIterator]();
  let chain: Promise<unknown> = Promise.resolve();
  return () => {
    const p = chain.then(() => it.next());
    chain = p.catch(() => {});
    return p;
  };
}

async function drain(next: Next) {
  for (;;) if ((await next()).done) return;
}

async function readText(next: Next) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const r = await next();
    if (r.done) break;
    if (size >= MAX_TEXT_BYTES) continue;
    chunks.push(r.value);
    size += r.value.byteLength;
  }
  return Buffer.concat(chunks).subarray(0, MAX_TEXT_BYTES).toString("utf8");
}

/** The files of one request, in order, for a consumer that reads them one after the other. */
class FileQueue implements AsyncIterable<IncomingFile> {
  #items: IncomingFile[] = [];
  #end: { error?: unknown } | null = null;
  #waiter: { resolve: (r: IteratorResult<IncomingFile>) => void; reject: (e: unknown) => void } | null = null;

  push(file: IncomingFile) {
    if (this.#waiter) {
      this.#waiter.resolve({ value: file, done: false });
      this.#waiter = null;
    } else this.#items.push(file);
  }

  /** No more files; with an error, the consumer's next read fails (a broken upload is not a shorter one). */
  close(error?: unknown) {
    this.#end = error === undefined ? {} : { error };
    if (!this.#waiter) return;
    if (error === undefined) this.#waiter.resolve({ value: undefined, done: true });
    else this.#waiter.reject(error);
    this.#waiter = null;
  }

  [Symbol.asyncIterator](): AsyncIterator<IncomingFile> {
    return {
      next: () => {
        const item = this.#items.shift();
        if (item) return Promise.resolve({ value: item, done: false });
        if (this.#end) return "error" in this.#end ? Promise.reject(this.#end.error) : Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
      },
    };
  }
}

/**
 * Parse a multipart request, passing the files of `fileField` to `consume` as they arrive.
 * `consume` starts with the first accepted file; its result (or error) is in `outcome`
 * ("none" when no file was passed on). Parsing errors (a broken or aborted body) are thrown,
 * after the consumer has seen them and stopped.
 */
export async function streamUpload<R>(
  request: Request,
  opts: {
    fileField: string;
    /** Asked once, at the first file, with the text fields sent before it. */
    acceptFiles: (fields: FormData) => boolean | Promise<boolean>;
    consume: (files: AsyncIterable<IncomingFile>) => Promise<R>;
  },
): Promise<{ fields: FormData; outcome: Outcome<R> }> {
  const fields = new FormData();
  const queue = new FileQueue();
  let accepted: boolean | undefined;
  let consumer: Promise<Outcome<R>> | undefined;
  let consumerDone = false;

  const handler: UploadHandler = async (part) => {
    const next = serial(part.data);
    if (part.filename === undefined) {
      fields.append(part.name, await readText(next));
      return undefined;
    }
    // An empty <input type=file> posts a part with an empty file name: nothing was chosen.
    if (part.name !== opts.fileField || !part.filename) {
      await drain(next);
      return undefined;
    }
    accepted ??= await opts.acceptFiles(fields);
    if (!accepted || consumerDone) {
      await drain(next);
      return undefined;
    }
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const stream = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const r = await next();
            if (r.done) {
              controller.close();
              release();
            } else controller.enqueue(r.value);
          } catch (e) {
            controller.error(e);
            release();
          }
        },
        cancel() {
          release();
        },
      },
      { highWaterMark: 0 },
    );
    queue.push({ name: part.filename, stream });
    consumer ??= opts
      .consume(queue)
      .then(
        (value): Outcome<R> => ({ status: "ok", value }),
        (error): Outcome<R> => ({ status: "error", error }),
      )
      .finally(() => {
        consumerDone = true;
      });
    await Promise.race([released, consumer]);
    // Whatever the consumer left unread is read and dropped, so the parser can go on to the next part.
    await drain(next);
    return undefined;
  };

  try {
    await unstable_parseMultipartFormData(request, handler);
  } catch (e) {
    queue.close(e);
    await consumer;
    throw e;
  }
  queue.close();
  return { fields, outcome: consumer ? await consumer : { status: "none" } };
}
