package io.agentlab.report.internal;

/** The two tests the comparison uses to tell a difference from noise ({@link Comparison}). */
final class Statistics {

    private Statistics() {
    }

    /**
     * A test's outcome.
     *
     * @param z         the standard normal statistic
     * @param p         the two-sided p-value
     * @param direction the sign of (second − first): positive when the second sample tends to be larger
     */
    record Test(double z, double p, int direction) {
    }

    /**
     * Two-sided Mann–Whitney U test with the normal approximation, tie correction and continuity correction (the
     * asymptotic form statistics packages use by default for samples of this size). The arrays are left as they are.
     *
     * <p>The two samples are merged in ascending order, {@code first}'s values before {@code second}'s among equals,
     * and each run of values equal to its first value shares its mean rank: the ranks of one stable sort of both, in
     * two primitive arrays instead of a boxed record per sample (docs/performance.md#memory).
     */
    static Test mannWhitney(double[] first, double[] second) {
        int n1 = first.length;
        int n2 = second.length;
        double[] a = first.clone();
        double[] b = second.clone();
        java.util.Arrays.sort(a);
        java.util.Arrays.sort(b);
        int n = n1 + n2;
        double[] values = new double[n];
        boolean[] inFirst = new boolean[n];
        for (int i = 0, j = 0, k = 0; k < n; k++) {
            boolean takeFirst = j >= n2 || i < n1 && Double.compare(a[i], b[j]) <= 0;
            values[k] = takeFirst ? a[i++] : b[j++];
            inFirst[k] = takeFirst;
        }
        double rankSumFirst = 0;
        double tieTerm = 0;
        for (int i = 0; i < n; ) {
            int j = i;
            while (j + 1 < n && values[j + 1] == values[i]) {
                j++;
            }
            double rank = (i + j + 2) / 2.0; // ranks are 1-based; ties share their mean rank
            int ties = j - i + 1;
            tieTerm += (double) ties * ties * ties - ties;
            for (int k = i; k <= j; k++) {
                if (inFirst[k]) {
                    rankSumFirst += rank;
                }
            }
            i = j + 1;
        }
        double u1 = rankSumFirst - n1 * (n1 + 1) / 2.0;
        double mean = n1 * (double) n2 / 2.0;
        double variance = n1 * (double) n2 / 12.0 * ((n + 1) - tieTerm / ((double) n * (n - 1)));
        if (variance <= 0) {
            return new Test(0, 1, 0);
        }
        double difference = u1 - mean;
        double z = (Math.abs(difference) - 0.5) / Math.sqrt(variance);
        z = Math.max(0, z);
        // u1 below its mean: the first sample ranks lower, so the second tends to be larger
        return new Test(z, 2 * upperTail(z), difference < 0 ? 1 : difference > 0 ? -1 : 0);
    }

    /** Two-sided pooled two-proportion z-test of s1/n1 against s2/n2. */
    static Test twoProportions(long s1, long n1, long s2, long n2) {
        double p1 = (double) s1 / n1;
        double p2 = (double) s2 / n2;
        double pooled = (double) (s1 + s2) / (n1 + n2);
        double se = Math.sqrt(pooled * (1 - pooled) * (1.0 / n1 + 1.0 / n2));
        if (se == 0) {
            return new Test(0, 1, 0);
        }
        double z = Math.abs(p2 - p1) / se;
        return new Test(z, 2 * upperTail(z), Double.compare(p2, p1));
    }

    /** P(Z > z) for a standard normal Z: 0.5 · erfc(z / √2). */
    static double upperTail(double z) {
        return 0.5 * erfc(z / Math.sqrt(2));
    }

    /** The complementary error function, to about 1e-7 (Numerical Recipes' Chebyshev fit). */
    static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1 / (1 + 0.5 * z);
        double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }
}
