/**
 * Live chat attendance: the room flow of spec section 4, as use-cases (ADR 014). HTTP routes, the
 * realtime commands, the widget and the channel webhooks all call these; nothing else changes a
 * room. Each use-case runs in one transaction (./transaction `inRoomTransaction`) that locks the
 * room row (`FOR UPDATE`) and changes it through ./transition `changeRoom`: the status move is
 * checked against `MOVES`, the room, its live_room_events entry and the stream notices are written
 * there; after commit the notices are published on the live streams (../streams) and the
 * automatic distribution runs.
 *
 * Room statuses: QUEUE (waiting for an agent in its department) -> OPEN (an agent attends) ->
 * CLOSED. From OPEN: close (a required tabulation must be set), transfer to an agent (locked until
 * the agent accepts — the room moves — or refuses — it returns to the queue), transfer to a
 * department (back to QUEUE in that department, locked until an agent takes it:
 * transfer_finished), return to queue. A visitor who writes while nobody can attend (outside
 * hours, or the queue is off) leaves an offline contact (CLOSED, offline) that an agent resumes
 * or marks solved; an OPEN room whose visitor stopped answering becomes idle until resumed or the
 * visitor writes again.
 *
 * The modules: ./visitor (the visitor's messages, queue position), ./distribution (capacity and
 * automatic distribution), ./agent-actions (status, take, write, close, tabulation, tags, contact,
 * return to queue), ./transfers, ./resume (offline and idle contacts), ./receipts (delivered and
 * read), ./sweeps (the worker's idle and absent-agent sweeps), ./queries (lists, counts, one room,
 * messages, load), ./contact (the contact fields' rule), ./views and ./types. Live settings are
 * read through ../settings only.
 *
 * This file re-exports what the one rooms.ts exported before the split, for code that imports
 * "api/live/rooms" as a whole (the web app's live-desk and live-state, branches written before
 * the split); code in api/ imports the module it uses. Helpers shared between the modules
 * (assign, agentLoad, contactFor…) stay out of it.
 */
export { AGENT_STATUSES, LIVE_CHANNELS, type AgentStatus, type Attachment, type LiveChannel, type LiveMessage, type MessageStatus, type Room, type RoomStatus } from "./types";
export { messageView, roomSummary, visitorView } from "./views";
export { assertAttendant } from "./guards";
export { cleanRoomContact, ROOM_CONTACT_FIELDS, type RoomContactPatch } from "./contact";
export { queuePosition, visitorMessage, type VisitorMessageInput } from "./visitor";
export { distribute } from "./distribution";
export {
  cleanSuggestions,
  closeRoom,
  returnToQueue,
  sendAgentMessage,
  setAgentStatus,
  setRoomTags,
  setTabulation,
  takeRoom,
  updateRoomContact,
  type AgentMessageInput,
} from "./agent-actions";
export { acceptTransfer, refuseTransfer, transferToAgent, transferToDepartment } from "./transfers";
export { resumeIdle, resumeOffline, solveOffline } from "./resume";
export { markDelivered, markRead, visitorRead } from "./receipts";
export { releaseAbsentAgents, sweepIdle } from "./sweeps";
export { getRoom, listRooms, myLoad, MESSAGES_PER_PAGE, roomCounts, roomMessages, roomPage, ROOMS_PER_PAGE, type RoomList, type RoomPageQuery } from "./queries";
