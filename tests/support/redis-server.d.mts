/** Types of ./redis-server.mjs (plain JavaScript, shared with bench/chaos.mjs). */
/** A free loopback port. */
export declare function freePort(): Promise<number>;
export declare class RedisServer {
  readonly port: number;
  constructor(port: number);
  get url(): string;
  static start(): Promise<RedisServer>;
  start(): Promise<void>;
  kill(): Promise<void>;
  killNow(): void;
}
