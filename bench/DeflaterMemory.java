import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.Deflater;

/**
 * What a compressed event stream holds in native memory (docs/benchmarks.md, bytes on the wire): STREAMS JDK zlib
 * deflaters, as Netty's gzip encoder makes them (level 6, window 15, memLevel 8), each fed FRAMES text frames with a
 * sync flush; prints the growth of the process's resident memory per deflater.
 * Usage: java bench/DeflaterMemory.java STREAMS FRAMES
 */
public class DeflaterMemory {

    public static void main(String[] args) throws Exception {
        int streams = Integer.parseInt(args[0]);
        int frames = Integer.parseInt(args[1]);
        byte[] frame = ("id: 1a.41\ndata: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":"
                + "\"e8733bc5-9010-4e30-8b06-0f5bca509511\",\"delta\":\" word1\"}\n\n").getBytes();
        byte[] out = new byte[4096];
        long before = residentKb();
        List<Deflater> deflaters = new ArrayList<>();
        for (int i = 0; i < streams; i++) {
            Deflater deflater = new Deflater(6, true);
            for (int k = 0; k < frames; k++) {
                deflater.setInput(frame);
                deflater.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
            }
            deflaters.add(deflater);
        }
        long grown = residentKb() - before;
        System.out.printf("%d deflaters, %d frames each: resident memory +%d KB, %.0f KB each%n", streams, frames, grown,
                grown / (double) streams);
        deflaters.forEach(Deflater::end);
    }

    private static long residentKb() throws Exception {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(line -> line.startsWith("VmRSS:"))
                .mapToLong(line -> Long.parseLong(line.replaceAll("\\D", ""))).findFirst().orElseThrow();
    }
}
