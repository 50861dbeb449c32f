import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Rewrites the class files in a jar that are older than Java 6 (major version 50) as Java 8 class
 * files (52), with the stack maps the newer format needs, so that an AOT cache can hold them. The
 * JVM leaves such "old" classes out of a cache (they are verified by the old type-inferring
 * verifier at run time): in the server's jar that is picocli, the Vert.x launcher's command-line
 * parser, compiled for Java 5, which took about 0.1 s of the start before the port opened
 * (src/site/markdown/start-up.md). The instructions are kept as they are; only the version and the
 * StackMapTable attributes change. Every rewritten class is checked by the ClassFile API's verifier,
 * and the jar is left untouched if one fails.
 *
 * <p>Runs on Java 24 or later (the ClassFile API), as a source-file program:
 * {@code java src/build/CacheableClassFiles.java target/vertx-beanstalkd.jar}; the pom's start-cache
 * profile runs it before src/build/train-start-cache.sh.
 */
public final class CacheableClassFiles {
  private static final int FIRST_WITH_STACK_MAPS = 50;
  private static final int REWRITTEN_MAJOR = 52;

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: java src/build/CacheableClassFiles.java JAR");
      System.exit(2);
    }
    Path jar = Path.of(args[0]);
    Path rewritten = jar.resolveSibling(jar.getFileName() + ".rewriting");
    int count = 0;
    try (URLClassLoader classes = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
        ZipFile in = new ZipFile(jar.toFile());
        ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(rewritten))) {
      // Stack maps name the common supertype where two paths join: classes of the jar, then the JDK's.
      ClassFile classFile = ClassFile.of(ClassFile.StackMapsOption.GENERATE_STACK_MAPS,
          ClassFile.ClassHierarchyResolverOption.of(ClassHierarchyResolver.defaultResolver()
              .orElse(ClassHierarchyResolver.ofResourceParsing(classes))));
      for (ZipEntry entry : Collections.list(in.entries())) {
        byte[] bytes = in.getInputStream(entry).readAllBytes();
        if (entry.getName().endsWith(".class") && majorVersion(bytes) < FIRST_WITH_STACK_MAPS) {
          bytes = rewrite(classFile, bytes, entry.getName());
          count++;
        }
        ZipEntry copy = new ZipEntry(entry.getName());
        copy.setTime(entry.getTime());
        out.putNextEntry(copy);
        out.write(bytes);
        out.closeEntry();
      }
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(rewritten);
      throw e;
    }
    Files.move(rewritten, jar, StandardCopyOption.REPLACE_EXISTING);
    System.out.println("cacheable-class-files: " + count + " class files older than Java 6 rewritten as Java 8 in "
        + jar);
  }

  private static int majorVersion(byte[] classBytes) {
    return ((classBytes[6] & 0xff) << 8) | (classBytes[7] & 0xff);
  }

  /** The class at version 52, every method body passed through the builder so that its stack maps are generated. */
  private static byte[] rewrite(ClassFile classFile, byte[] bytes, String name) {
    ClassModel model = classFile.parse(bytes);
    byte[] rewritten = classFile.transformClass(model, ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)
        .andThen((builder, element) -> {
          if (element instanceof ClassFileVersion) {
            builder.withVersion(REWRITTEN_MAJOR, 0);
          } else {
            builder.with(element);
          }
        }));
    List<VerifyError> errors = classFile.verify(rewritten);
    if (!errors.isEmpty()) {
      throw new IllegalStateException(name + " does not verify once rewritten: " + errors);
    }
    return rewritten;
  }
}
