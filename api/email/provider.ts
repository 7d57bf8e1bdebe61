/** The provider of e-mail sent over SMTP (the relay of EMAIL_SMTP_URL, or the local peer): what its messages are keyed by. Its own module: the adapter and the accept both name it, without importing each other. */
export const EMAIL_PROVIDER = "email_smtp";
