// Test oracle: loads each case with java.util.Properties and prints what Java read.
// Input: one Base64 (UTF-8) case per line. Output: one line per case, Base64 of the entries
// sorted by key as key NUL value NUL ..., or "ERROR" when Properties.load throws.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

public class PropertiesOracle {
  public static void main(String[] args) throws IOException {
    StringBuilder out = new StringBuilder();
    for (String line : Files.readAllLines(Paths.get(args[0]), StandardCharsets.US_ASCII)) {
      String text = new String(Base64.getDecoder().decode(line), StandardCharsets.UTF_8);
      Properties properties = new Properties();
      try {
        properties.load(new StringReader(text));
      } catch (IllegalArgumentException e) {
        out.append("ERROR\n");
        continue;
      }
      StringBuilder entries = new StringBuilder();
      for (String key : new TreeSet<>(properties.stringPropertyNames())) {
        entries.append(key).append('\0').append(properties.getProperty(key)).append('\0');
      }
      out.append(Base64.getEncoder().encodeToString(entries.toString().getBytes(StandardCharsets.UTF_8))).append('\n');
    }
    System.out.print(out);
  }
}
