import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { outbox } from '../db/schema';
import type { Executor } from '../services/db';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The main link of the message, also shown in the console and the development outbox. */
  link?: string;
  code?: string;
}

const transports = new Map<string, Transporter>();

function transportFor(smtpUrl: string): Transporter {
  let transport = transports.get(smtpUrl);
  if (!transport) {
    transport = nodemailer.createTransport(smtpUrl);
    transports.set(smtpUrl, transport);
  }
  return transport;
}

/**
 * Sends a message over SMTP when SMTP_URL is set; otherwise keeps it in the outbox table (pass the
 * transaction so it is written with the change that caused it) and prints it to the console log.
 */
export async function sendMail(app: FastifyInstance, db: Executor, mail: Mail, log: FastifyBaseLogger = app.log) {
  const smtpUrl = app.config.SMTP_URL;
  if (smtpUrl) {
    await transportFor(smtpUrl).sendMail({
      from: app.config.MAIL_FROM,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
    });
    log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
    return;
  }
  await db.insert(outbox).values({
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    link: mail.link ?? null,
    code: mail.code ?? null,
  });
  log.info(
    { to: mail.to, subject: mail.subject, link: mail.link, code: mail.code },
    `mail to ${mail.to}: ${mail.subject}`,
  );
}

/**
 * The address users reach the product on, from the configuration only: a link built from the request's
 * Host would let whoever sends the request choose where a victim's sign-in link points.
 */
export function publicOrigin(request: FastifyRequest): string {
  return request.server.config.publicUrl;
}
