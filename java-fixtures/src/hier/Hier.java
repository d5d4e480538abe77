package hier;

/** Hierarchy fixtures: an interface with a default method, abstract and concrete classes. */
interface Shape { int area(); default int sides() { return 0; } }
abstract class Base implements Shape { int a; static int count; }
class Sq extends Base { int b; public int area() { return a * a; } public int sides() { return 4; } }
class Circ extends Base { public int area() { return 3 * a * a; } }
final class Unit extends Sq { int c; }
class Shadow extends Sq { int a; }
class StaticOnly { static int a; }
public class Hier { }
