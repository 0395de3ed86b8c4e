import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

/**
 * JSON logs, one object a line, with the level as its name (`"level":"info"`). On a terminal
 * outside production they are pretty-printed instead (pino-pretty, in the process: a
 * developer's `npm start`); a pipe or a file always gets JSON. Anything that could hold a credential is redacted by path, and the request
 * loggers only ever log method, path, status and timing, never headers or bodies.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'waybill' },
      redact: {
        paths: [
          'authorization',
          '*.authorization',
          'headers.authorization',
          'req.headers.authorization',
          'client_secret',
          '*.client_secret',
          'secret',
          '*.secret',
          'Secret',
          '*.Secret',
          'access_token',
          '*.access_token',
          'token',
          '*.token',
          // Card numbers are cut to their last 4 digits on receipt and request loggers never log
          // bodies; this keeps one passed to a logger by mistake out of the logs all the same.
          'FuelCardNumber',
          '*.FuelCardNumber',
          '*.*.FuelCardNumber',
        ],
        censor: '[redacted]',
      },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? (prettyTerminal() ? pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' }) : undefined),
  );
}

function prettyTerminal(): boolean {
  return process.stdout.isTTY === true && process.env.NODE_ENV !== 'production' && process.env.LOG_FORMAT !== 'json';
}

/**
 * The logger of the one line each request writes. Its fields are fixed primitives (host,
 * request id, method, a path with any download or tracking token already cut out, status,
 * time, client and tenant ids), none of them a redacted name, so redaction could never change
 * the line; it is skipped because with wildcard paths pino passes every field of every line
 * through the redactor, which cost about a tenth of a position request's CPU. Anything else,
 * errors included, goes through the redacting logger.
 */
export function requestLineLogger(logger: Logger): Logger {
  return logger.child({}, { redact: [] });
}

/** A logger that writes nothing, for tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
