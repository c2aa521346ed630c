/**
 * {@code calendar.schedule.create}: reminders and calendar entries from English and Chinese, resolved against the
 * session timezone and the captured request time; ambiguous times are asked about, never guessed.
 */
package io.agentlab.plugins.calendar;
