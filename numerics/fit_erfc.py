#!/usr/bin/env python3
"""Fits the polynomial of numerics/erfc_float.h and prints it as C++.

erfc(a) = t * exp(P(t) - a*a) with t = 2 / (2 + a), for a in [0, kErfcLargest]: P is smooth
in t, so one polynomial in u (t mapped onto [-1, 1]) of degree 16 holds it to about 1e-12,
the result's relative error. The fit is least squares on Chebyshev nodes, solved with 40
decimal digits (mpmath), which is close to the best uniform fit.

Usage: python3 numerics/fit_erfc.py   (needs mpmath: pip install mpmath)
"""
import mpmath as mp

mp.mp.dps = 40
LARGEST = mp.mpf("10.1")  # kErfcLargest: erfc of larger floats rounds to 0.
DEGREE = 16
NODES = 300

t_low = 2 / (2 + LARGEST)


def p_exact(t):
    a = 2 / t - 2
    return mp.log(mp.erfc(a) / t) + a * a


def main():
    us = [mp.cos(mp.pi * (k + mp.mpf("0.5")) / NODES) for k in range(NODES)]
    ts = [t_low + (1 - t_low) * (u + 1) / 2 for u in us]
    m = mp.matrix(NODES, DEGREE + 1)
    for i, u in enumerate(us):
        for j in range(DEGREE + 1):
            m[i, j] = u**j
    coefficients = mp.lu_solve(m.T * m, m.T * mp.matrix([p_exact(t) for t in ts]))
    worst = 0
    for i in range(2001):
        u = -1 + mp.mpf(i) / 1000
        t = t_low + (1 - t_low) * (u + 1) / 2
        approx = sum(float(coefficients[j]) * u**j for j in range(DEGREE + 1))
        worst = max(worst, abs(approx - p_exact(t)))
    print(f"// u = t * {float(2 / (1 - t_low)).hex()} - {float((1 + t_low) / (1 - t_low)).hex()}")
    print(f"// largest |P - fit| on 2001 points: {float(worst):.3g}")
    print("inline constexpr double kErfcPolynomial[] = {")
    for j in range(DEGREE + 1):
        print(f"    {float(coefficients[j]).hex()},")
    print("};")


if __name__ == "__main__":
    main()
