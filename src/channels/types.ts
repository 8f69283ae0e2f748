import type { ChannelConfig, ChannelKind } from '../config/schema.js';
import type { PositionEvent } from '../positions/types.js';

/** An issuer as shown in messages. */
export interface IssuerRef {
  id: string;
  name: string;
}

/** The events of one issuer from one poll, for one channel. */
export interface EventsMessage {
  type: 'events';
  issuer: IssuerRef;
  events: PositionEvent[];
}

/** One issuer's waiting events. */
export interface IssuerEvents {
  issuer: IssuerRef;
  events: PositionEvent[];
}

/** Several issuers' events coalesced into one message while a channel has a backlog. */
export interface BatchMessage {
  type: 'batch';
  groups: IssuerEvents[];
}

/** A digest: every event staged for a channel over a period, newest first once rendered. */
export interface DigestMessage {
  type: 'digest';
  /** Period covered, ISO 8601 instants, and the zone to show them in. */
  period: { from: string; to: string; timezone: string };
  events: PositionEvent[];
}

/** An operator notice: one ongoing problem is one notice, plus one `resolved` when it clears. */
export interface NoticeMessage {
  type: 'notice';
  /** Stable key of the problem, e.g. `access-revoked` or `issuer-missing-ISS-1`. */
  key: string;
  severity: 'info' | 'warning' | 'critical' | 'resolved';
  title: string;
  text: string;
}

/** A clearly marked sample sent by `shortwatch test-notify`. */
export interface TestMessage {
  type: 'test';
  channel: string;
  sentAt: string;
}

/** Anything a channel can be asked to deliver. */
export type Message = EventsMessage | BatchMessage | DigestMessage | NoticeMessage | TestMessage;

/**
 * Progress of a message that a channel sends in several parts (Slack splits long messages): a retry
 * resumes after the parts already sent instead of sending them twice.
 */
export interface SendProgress {
  /** Parts sent by earlier attempts. */
  partsSent: number;
  /** Records how many parts have gone out, before the next is tried. */
  onPartSent?: (partsSent: number) => Promise<void>;
  /**
   * The same on every attempt of one delivery (derived from the event ids in the message): channels that
   * can pass it on (e-mail Message-ID, webhook header) let receivers drop repeats.
   */
  deliveryId: string;
}

/** One configured channel's I/O: render is pure and lives beside it; this is the thin send. */
export interface ChannelSender {
  /** Delivers one message; throws a DeliveryError that says whether to retry, rate-limit or park. */
  send(message: Message, progress?: SendProgress): Promise<void>;
  /**
   * How many of the leading groups one message of this channel carries (at least 1, at most groups.length;
   * 0 only for no groups). Pure: build the message with `messageForGroups(groups.slice(0, k))`.
   */
  coalesce(groups: readonly IssuerEvents[]): number;
  /** Checks the configuration without sending anything (SMTP connect + AUTH, webhook URL shape). */
  verify(): Promise<string>;
  /** Releases pooled connections. */
  close(): Promise<void>;
}

/**
 * A channel's own small memory in Redis (a Slack thread's parent, a message's timestamp, a user's DM
 * conversation): each entry expires, so it stays bounded whatever the channel posts.
 */
export interface ChannelMemory {
  /** The value stored under `key`, or undefined when none (never set, or expired). */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key` for `ttlMs` (at least one second). */
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

/** What a channel factory may use besides its own config. */
export interface ChannelDeps {
  /** Clock, for timestamps in messages. */
  now: () => Date;
  /** This channel's memory (only the Slack app kind uses it today). */
  memory: ChannelMemory;
}

/** Builds the sender of one channel kind from its config. */
export type ChannelFactory<K extends ChannelKind> = (
  config: Extract<ChannelConfig, { kind: K }>,
  deps: ChannelDeps,
) => ChannelSender;
