// JitHot.java - test 102: one hot method, hotLoopJava, for 2 s of wall time, run
// with -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit so that the JVM names
// its JIT code in /tmp/perf-PID.map when it exits.
public class JitHot {
    static long hotLoopJava(long n, long x) {
        for (long i = 0; i < n; i++) x = x * 6364136223846793005L + i;
        return x;
    }
    public static void main(String[] a) {
        long t = System.nanoTime(), x = 1;
        while (System.nanoTime() - t < 2_000_000_000L) x = hotLoopJava(1_000_000, x);
        System.out.println(x & 1);
    }
}
