import { z } from 'zod';

export const MAX_CHAT_MESSAGE_CHARS = 10_000;

/** `POST /chat` body (seed §9 `validate_message` and session id rules). */
export const ChatRequestSchema = z.object({
  message: z
    .string({ error: 'message is required' })
    .trim()
    .min(1, 'message is required')
    .max(MAX_CHAT_MESSAGE_CHARS, `message cannot exceed ${MAX_CHAT_MESSAGE_CHARS} characters`),
  session_id: z
    .string()
    .regex(/^[A-Za-z0-9-]{8,128}$/, 'session_id must be 8-128 letters, digits, or hyphens')
    .optional(),
});

export type ChatRequest = z.infer<typeof ChatRequestSchema>;
