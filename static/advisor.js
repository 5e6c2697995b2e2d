// The planning advisor (optional, DEEPSEEK_API_KEY on the server): its replies are shown as safe markdown
// (markdown.js), and each suggested command can be planned as a new card, unless the policy already blocked it.

import { api, RequestFailed } from './api.js';
import { renderMarkdown } from './markdown.js';
import { guarded } from './notices.js';
import { planCommand } from './plans.js';
import { adoptSession } from './session.js';
import { $, store } from './state.js';
import { sentenceFor } from './words.js';

function chatEntry(role, text) {
  const entry = document.createElement('div');
  entry.className = `chat-entry ${role}`;
  if (role === 'assistant') {
    const body = document.createElement('div');
    body.className = 'markdown';
    body.append(renderMarkdown(text));
    entry.append(body);
  } else {
    const body = document.createElement('p');
    body.textContent = text;
    entry.append(body);
  }
  return entry;
}

function suggestionCard(suggestion) {
  const card = document.createElement('div');
  const blocked = suggestion.verdict === 'deny' || suggestion.status === 'blocked';
  card.className = 'suggestion';
  card.dataset.verdict = blocked ? 'blocked' : 'allowed';
  const command = document.createElement('code');
  command.textContent = suggestion.command;
  const verdict = document.createElement('span');
  verdict.className = `badge risk-${blocked ? 'blocked' : suggestion.risk}`;
  verdict.textContent = blocked ? 'BLOCKED' : `${String(suggestion.risk).toUpperCase()} RISK`;
  card.append(command, verdict);
  if (blocked) {
    // Planning it again would only be blocked again: say why instead of offering it.
    const why = document.createElement('small');
    why.className = 'suggestion-why';
    why.textContent =
      Array.isArray(suggestion.reasons) && suggestion.reasons.length > 0
        ? `The policy blocks it: ${suggestion.reasons[0]}`
        : 'The policy blocks it.';
    card.append(why);
    return card;
  }
  const use = document.createElement('button');
  use.type = 'button';
  use.className = 'secondary small';
  use.textContent = 'Plan it';
  use.addEventListener('click', () => {
    $('command').value = suggestion.command;
    void guarded(planCommand);
  });
  card.append(use);
  return card;
}

/** Brings a new chat entry into view: its beginning when it is taller than the log, else the log's end. */
function reveal(node) {
  const log = $('chat-log');
  log.scrollTop = node.offsetHeight > log.clientHeight ? node.offsetTop : log.scrollHeight;
  log.scrollIntoView({ block: 'nearest' });
}

export async function askAdvisor() {
  const message = $('chat-message').value.trim();
  if (message === '') return;
  const log = $('chat-log');
  log.append(chatEntry('user', message));
  $('chat-message').value = '';
  const waiting = chatEntry('pending', 'The advisor is thinking');
  waiting.setAttribute('role', 'status');
  log.append(waiting);
  log.setAttribute('aria-busy', 'true');
  $('chat-send').disabled = true;
  reveal(waiting);
  let answer;
  try {
    const sessionId = store.state.sessionId;
    // Without a session, the chat opens one for this tab; its suggestions are planned there.
    const reply = await api('ui/chat', {
      method: 'POST',
      body: sessionId === '' ? { message } : { message, session_id: sessionId },
    });
    adoptSession(reply.session_id);
    answer = chatEntry('assistant', reply.message);
    for (const suggestion of reply.plans ?? []) answer.append(suggestionCard(suggestion));
  } catch (error) {
    const sentence =
      error instanceof RequestFailed && error.code === 'chat_unavailable' && typeof error.details.message === 'string'
        ? `The model did not answer (${error.details.message}). The terminal tools still work.`
        : sentenceFor(error);
    answer = chatEntry('error', sentence);
  } finally {
    log.removeAttribute('aria-busy');
    $('chat-send').disabled = false;
  }
  waiting.replaceWith(answer);
  reveal(answer);
}
