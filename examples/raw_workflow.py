"""Raw diabetes in its own units -> public bounds -> a budget cap -> mean, PCA and a regression."""
import sys, numpy as np, dpcov
X = np.genfromtxt(f"{sys.argv[1]}/diabetes.csv", delimiter=",", skip_header=1)    # raw units
b = np.genfromtxt(f"{sys.argv[1]}/diabetes_bounds.csv", delimiter=",", names=True)  # public
strong = [2, 3, 8, 10]                                        # bmi, bp, s5 -> progression
with dpcov.BudgetAccountant(epsilon=5.0, delta=1e-5) as budget:                    # the cap
    pca = dpcov.PrivatePCA(n_components=2, bounds=(b["min"], b["max"]), epsilon=1.0).fit(X)
    reg = dpcov.PrivateLinearRegression(4.0, bounds=(b["min"][strong], b["max"][strong]), intervals=False).fit(X[:, strong[:3]], X[:, 10])
print("mean:", pca.mean_.round(1), "\nPC1:", pca.components_[0].round(3), "\ncoef: bmi, bp, s5 (data units)", reg.coef_.round(2))
print("spent:", round(budget.spent.epsilon, 6), "of", budget.spent.epsilon_cap)
