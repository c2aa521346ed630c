/** Text helpers the built-in resolvers share: number words to digits (English and Chinese) and language detection. */
package io.agentlab.plugins.text;
