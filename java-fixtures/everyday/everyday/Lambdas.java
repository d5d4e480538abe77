package everyday;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntBinaryOperator;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

/** Everyday lambdas and method references (invokedynamic, LambdaMetafactory). */
public class Lambdas {
    static int applyN(int n, int x) {
        IntUnaryOperator inc = v -> v + 1;
        for (int i = 0; i < n; i++) x = inc.applyAsInt(x);
        return x;
    }

    static int fold(int[] a) {
        IntBinaryOperator add = Integer::sum;
        int s = 0;
        for (int x : a) s = add.applyAsInt(s, x);
        return s;
    }

    static int capture(int k, int x) {
        IntUnaryOperator addK = v -> v + k;
        return addK.applyAsInt(x);
    }

    static int supplied(int n) {
        Supplier<List<Integer>> make = ArrayList::new;
        List<Integer> xs = make.get();
        for (int i = 0; i < n; i++) xs.add(i);
        return xs.size();
    }

    static int sortDescending(int a, int b) {
        List<Integer> xs = new ArrayList<>();
        xs.add(a);
        xs.add(b);
        xs.sort((p, q) -> Integer.compare(q, p));
        return xs.get(0);
    }

    static int lengthOf(String s) {
        java.util.function.Function<String, Integer> len = String::length;
        return len.apply(s);
    }

    static int totalLength(String[] words) {
        java.util.function.Function<String, Integer> len = String::length;
        int t = 0;
        for (String w : words) t += len.apply(w);
        return t;
    }

    static int sameLength(String a, String b) {
        java.util.function.Function<String, Integer> len = String::length;
        return len.apply(a) == len.apply(b) ? 1 : 0;
    }
}
