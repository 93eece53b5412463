import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';

import type { Mailer } from '../common/mailer.ts';

export type { Mailer, MailOutcome, OutgoingMail } from '../common/mailer.ts';

/**
 * Email through the SMTP server of SMTP_URL; without one, each message is written as an .eml
 * file in DATA_DIR/mail (open it in any mail program), so nothing is silently dropped.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(mail) {
        const info = await transport.sendMail({ from: config.mailFrom, ...mail });
        return { outcome: 'sent', messageId: info.messageId ?? null };
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const dir = path.join(config.dataDir, 'mail');
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: config.mailFrom, ...mail });
      await mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await writeFile(path.join(dir, name), info.message as Buffer, { mode: 0o600 });
      return { outcome: 'written_to_eml', messageId: info.messageId ?? null };
    },
  };
}

/** What the history keeps of a message the mail server refused: its codes, never the message. */
export function mailRefusal(error: unknown): { why: string; code: string | null; responseCode: number | null } {
  const { code, responseCode } = (error ?? {}) as { code?: string; responseCode?: number };
  const why =
    [responseCode, code].filter((v) => v !== undefined && v !== null).join(' ') || 'the mail server did not take it';
  return { why, code: code ?? null, responseCode: responseCode ?? null };
}
