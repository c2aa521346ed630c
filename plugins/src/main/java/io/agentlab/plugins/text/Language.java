package io.agentlab.plugins.text;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Locale;
import org.apiguardian.api.API;

/** The two languages the voice toy hears. */
@API(status = INTERNAL, since = "0.1")
public enum Language {
    /** English. */
    ENGLISH,
    /** Chinese (Mandarin, simplified script). */
    CHINESE;

    /** Chinese when the text contains a CJK ideograph, English otherwise. */
    public static Language of(String text) {
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN) {
                return CHINESE;
            }
            i += Character.charCount(cp);
        }
        return ENGLISH;
    }

    /** Chinese for a {@code zh} locale, English otherwise. */
    public static Language of(Locale locale) {
        return "zh".equals(locale.getLanguage()) ? CHINESE : ENGLISH;
    }
}
