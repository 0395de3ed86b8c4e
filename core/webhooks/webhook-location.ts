import type { Config } from '../config.js';

export function webhookLocation(config: Config, id: string): string {
  return `${config.publicBaseUrl}/api/p/v1.0/webhooks/${encodeURIComponent(id)}`;
}
