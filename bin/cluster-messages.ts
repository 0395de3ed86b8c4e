/** What an API worker tells the cluster's primary once both of its hosts listen. */
export const LISTENING = 'waybill:listening';

export interface ListeningMessage {
  type: typeof LISTENING;
  apiUrl: string;
  authUrl: string;
}

export function isListeningMessage(message: unknown): message is ListeningMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === LISTENING;
}
