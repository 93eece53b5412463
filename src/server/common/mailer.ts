/** What every part that sends email needs to know of the mailer (mail/transport.ts makes it). */
export type OutgoingMail = {
  to: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
};

/** What became of a message the mailer took: handed to the SMTP server, or written as an .eml file. */
export type MailOutcome = { outcome: 'sent' | 'written_to_eml'; messageId: string | null };

/** Sends one message; a message the server refuses (or cannot be reached for) rejects with nodemailer's error. */
export type Mailer = { send(mail: OutgoingMail): Promise<MailOutcome> };
