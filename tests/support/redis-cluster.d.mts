/** Types of ./redis-cluster.mjs (plain JavaScript, shared with the benches). */
export declare class RedisCluster {
  nodes: Array<{ port: number; bus: number }>;
  readonly url: string;
  static start(opts?: { masters?: number; replicasPerMaster?: number }): Promise<RedisCluster>;
  waitHealthy(ms?: number): Promise<void>;
  masters(): Promise<number[]>;
  masterOf(slot: number): Promise<number>;
  kill(port: number): Promise<void>;
  restart(port: number): void;
  stop(): Promise<void>;
}
