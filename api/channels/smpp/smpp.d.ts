/** The part of the `smpp` package (farhadi/node-smpp 0.5) we use. */
declare module "smpp" {
  import type { EventEmitter } from "node:events";
  import type { Server as NetServer } from "node:net";

  export type ShortMessage = string | Buffer | { udh?: Buffer | Buffer[]; message: string | Buffer };
  export interface PDU {
    command: string;
    command_status: number;
    sequence_number: number;
    [field: string]: any;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): PDU;
  }
  export interface Session extends EventEmitter {
    socket: import("node:net").Socket;
    send(pdu: PDU, responseCallback?: (pdu: PDU) => void, sendCallback?: (pdu: PDU) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    [command: string]: any;
  }
  export interface Server extends NetServer {
    sessions: Session[];
  }
  export const PDU: { new (command: string, options?: Record<string, unknown>): PDU };
  export function connect(options: { url: string; auto_enquire_link_period?: number; [k: string]: unknown }, callback?: () => void): Session;
  export function createServer(listener?: (session: Session) => void): Server;
  export function createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server;
  export const encodings: Record<string, unknown> & { default: string };
  const smpp: {
    connect: typeof connect;
    createServer: typeof createServer;
    PDU: typeof PDU;
    encodings: typeof encodings;
    [constant: string]: any;
  };
  export default smpp;
}
