package io.ringwatch.perf.noise;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * {@code cblas_dgemm} of the host's OpenBLAS ({@code libopenblas.so.0}, Debian's {@code libopenblas0}) through JNA
 * direct mapping: a call passes primitives and raw pointers to off-heap matrices, so it allocates nothing.
 * The library is loaded on the first use of this class; {@link #unavailableReason()} says whether that worked.
 * {@code -Dringwatch.noise.blas=NAME_OR_PATH} picks another CBLAS library.
 */
public final class Blas
{
    /** Library tried first, then {@code openblas} (JNA's own search). */
    public static final String DEFAULT_LIBRARY = "libopenblas.so.0";

    static final int ROW_MAJOR = 101;
    static final int NO_TRANS = 111;

    private static final String LIBRARY;
    private static final String REASON;

    static
    {
        String loaded = null;
        String reason = null;
        final String wanted = System.getProperty("ringwatch.noise.blas");
        for (final String name : wanted != null ? new String[]{wanted} : new String[]{DEFAULT_LIBRARY, "openblas"})
        {
            try
            {
                Native.register(Blas.class, NativeLibrary.getInstance(name));
                loaded = name;
                reason = null;
                break;
            }
            catch (final UnsatisfiedLinkError | RuntimeException ex)
            {
                // JNA's message spans lines; the reason travels on one line of the worker protocol
                reason = (reason == null ? "" : reason + "; ") + name + ": " +
                    String.valueOf(ex.getMessage()).replaceAll("\\s+", " ");
            }
        }
        LIBRARY = loaded;
        REASON = loaded == null ? "no CBLAS library (" + reason + "); install Debian's libopenblas0" : null;
    }

    private Blas()
    {
    }

    /**
     * @return null when {@code cblas_dgemm} can be called, else why not.
     */
    public static String unavailableReason()
    {
        return REASON;
    }

    /**
     * @return the library name that was loaded, or null.
     */
    public static String library()
    {
        return LIBRARY;
    }

    /**
     * C = alpha·A·B + beta·C, row-major, no transposes.
     *
     * @param order  {@link #ROW_MAJOR}.
     * @param transA {@link #NO_TRANS}.
     * @param transB {@link #NO_TRANS}.
     * @param m      rows of A and C.
     * @param n      columns of B and C.
     * @param k      columns of A, rows of B.
     * @param alpha  scale of A·B.
     * @param a      A.
     * @param lda    leading dimension of A.
     * @param b      B.
     * @param ldb    leading dimension of B.
     * @param beta   scale of C.
     * @param c      C.
     * @param ldc    leading dimension of C.
     */
    static native void cblas_dgemm(
        int order, int transA, int transB, int m, int n, int k, double alpha, Pointer a, int lda, Pointer b, int ldb,
        double beta, Pointer c, int ldc);
}
