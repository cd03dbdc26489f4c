"""Raw diabetes in its own units -> public bounds -> a budget cap -> mean, PCA and a regression."""
import sys, numpy as np, dpcov
X = np.genfromtxt(f"{sys.argv[1]}/diabetes.csv", delimiter=",", skip_header=1)    # raw units
b = np.genfromtxt(f"{sys.argv[1]}/diabetes_bounds.csv", delimiter=",", names=True)  # public
B, B_y = np.hypot.reduce(np.fmax(-b["min"], b["max"])[:-1]), b["max"][-1]          # from them
with dpcov.BudgetAccountant(epsilon=2.0, delta=1e-5) as budget:                    # the cap
    pca = dpcov.PrivatePCA(n_components=2, bounds=(b["min"], b["max"]), epsilon=1.0).fit(X)
    reg = dpcov.PrivateLinearRegression(0.9, bound=B, label_bound=B_y, intervals=False).fit(X[:, :-1], X[:, -1])
print("mean:", pca.mean_.round(1), "\nPC1:", pca.components_[0].round(3), "\ncoef:", reg.coef_.round(3))
print("spent:", round(budget.spent.epsilon, 6), "of", budget.spent.epsilon_cap)
