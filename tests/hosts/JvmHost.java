// JvmHost - a JVM host for pct: four threads that compute (about 0.2 s of
// CPU each in a JIT-compiled loop), allocate
// enough garbage to make the collector run many times, and throw and
// catch exceptions, among them NullPointerExceptions that the JVM raises
// from a SIGSEGV of its own.  Prints the same lines with and without pct.
import java.util.ArrayList;
import java.util.List;

public class JvmHost {
    static long work(int seed, int rounds) {
        long sum = 0;
        int caught = 0;
        for (int r = 0; r < rounds; r++) {
            List<int[]> garbage = new ArrayList<>();
            for (int i = 0; i < 200; i++)
                garbage.add(new int[256 + (seed + i) % 64]);
            for (int[] a : garbage)
                sum += a.length;
            try {
                int[] none = (r % 7 == 0) ? null : garbage.get(0);
                sum += none.length;             // the JVM's SIGSEGV handler throws here
                if (r % 5 == 0)
                    throw new IllegalStateException("round " + r);
            } catch (NullPointerException | IllegalStateException e) {
                caught++;
            }
        }
        // and plain arithmetic, which the JIT makes fast: about 0.2 s of CPU
        long x = seed + 1;
        for (int i = 0; i < 200_000_000; i++)
            x = x * 6364136223846793005L + 1442695040888963407L;
        return sum * 31 + caught + (x & 1);
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
        long[] out = new long[4];
        Thread[] t = new Thread[4];
        for (int i = 0; i < 4; i++) {
            final int k = i;
            t[i] = new Thread(() -> out[k] = work(k, rounds), "worker-" + i);
            t[i].start();
        }
        for (Thread x : t)
            x.join();
        for (int i = 0; i < 4; i++)
            System.out.println("worker " + i + ": " + out[i]);
    }
}
